"""docs/python.md is true: its `python` blocks run in order, each printing the `text` block
that follows it."""

import contextlib
import io
import os
import re

import pytest

from conftest import ROOT

DOC = ROOT / "docs" / "python.md"


def blocks():
    """[(language, text, line)] of the fenced blocks of the document."""
    return [
        (m.group(1), m.group(2), DOC.read_text()[: m.start()].count("\n") + 1)
        for m in re.finditer(r"^```(\w+)\n(.*?)^```$", DOC.read_text(), re.M | re.S)
    ]


def test_walk_through(tmp_path, monkeypatch):
    if not DOC.is_file():
        pytest.skip("docs/python.md is not beside this package")
    pytest.importorskip("pandas")
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    found = blocks()
    assert sum(lang == "python" for lang, _, _ in found) >= 8
    namespace = {"__name__": "docs"}
    for k, (lang, code, line) in enumerate(found):
        if lang != "python":
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"{DOC.name}:{line}", "exec"), namespace)
        following = found[k + 1] if k + 1 < len(found) else None
        if following and following[0] == "text":
            assert out.getvalue() == following[1], f"{DOC.name}:{line}"
        else:
            assert out.getvalue() == "", f"{DOC.name}:{line} prints without a text block"
    assert os.path.exists("queens.png") or "plt" in namespace and namespace["plt"] is None
