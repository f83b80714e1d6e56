"""python/README.md's quick start runs as written, in an empty folder, and prints what its
comments say; its pandas block runs where pandas is installed."""

import contextlib
import io
import re
import xml.dom.minidom
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def python_blocks():
    return re.findall(r"^```python\n(.*?)^```$", README.read_text(), re.M | re.S)


def expected(code):
    """The outputs that `print(...)  # 1 2: note` lines promise (a comment starting with a
    digit, up to a ": " or " (")."""
    out = []
    for line in code.splitlines():
        m = re.match(r"\s*print\(.*\)\s+#\s*(\d.*)$", line)
        if m:
            out.append(re.split(r":\s| \(", m.group(1))[0].strip())
    return out


def run(code, namespace):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), namespace)
    return out.getvalue()


def test_quick_start_runs_as_written(tmp_path, monkeypatch):
    if not README.is_file():
        pytest.skip("python/README.md is not beside the tests")
    monkeypatch.chdir(tmp_path)
    blocks = python_blocks()
    assert len(blocks) >= 2
    namespace = {"__name__": "readme"}
    printed = run(blocks[0], namespace)
    promised = expected(blocks[0])
    assert len(promised) >= 5
    for fragment in promised:
        assert fragment in printed, fragment
    for picture in ("best.svg", "heatmap.svg"):
        xml.dom.minidom.parse(str(tmp_path / picture))
    pytest.importorskip("pandas")
    for code in blocks[1:]:
        printed = run(code, namespace)
        assert "score" in printed and "260" in printed
