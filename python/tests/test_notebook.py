"""A notebook run by `jupyter nbconvert --execute` shows the results as SVG pictures, and a
progress bar without tqdm's "IProgress not found" warning or a stray empty bar. Skipped where
Jupyter (nbconvert, nbformat, ipykernel) is not installed; python/ci.sh installs it."""

import re
import subprocess
import sys
import xml.dom.minidom

import pytest

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("nbconvert")
pytest.importorskip("ipykernel")

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

#: (what, code): each cell's last value is to be shown as SVG.
PICTURES = [
    ("weighted layout", "dancelinks.maximise(np.arange(1, 65).reshape(8, 8))"),
    ("solution", "dancelinks.draw_solution(dancelinks.solutions(8, limit=1)[0])"),
    ("model solution", "m.queens(8).first()"),
    (
        "solution grid",
        "dancelinks.draw_solutions(*dancelinks.solutions(8, unique=True, class_sizes=True))",
    ),
    ("heat map", "dancelinks.draw_heatmap(dancelinks.heatmap(8))"),
    ("sudoku", f"m.sudoku({PUZZLE!r}).first()"),
    ("tiling", "m.pentominoes('3x20').first()"),
]


def test_notebook_shows_svg(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    cells = ["import numpy as np\nimport dancelinks\nimport dancelinks.models as m"]
    cells += [code for _, code in PICTURES]
    cells.append("dancelinks.count(10, progress=True)")
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    path = tmp_path / "display.ipynb"
    nbformat.write(nb, path)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "jupyter",
            "nbconvert",
            "--to",
            "notebook",
            "--execute",
            "--inplace",
            "--ExecutePreprocessor.timeout=120",
            str(path),
        ],
        check=True,
        capture_output=True,
        cwd=tmp_path,
    )
    done = nbformat.read(path, as_version=4)
    for (what, _), cell in zip(PICTURES, done.cells[1:]):
        shown = [o for o in cell.outputs if o.output_type == "execute_result"]
        assert shown, what
        svg = shown[0].data.get("image/svg+xml")
        assert svg, f"{what}: no SVG output"
        doc = xml.dom.minidom.parseString(svg)
        assert doc.documentElement.tagName == "svg", what
        assert not [o for o in cell.outputs if o.output_type == "stream"], what
    progress = done.cells[-1]
    result = [o for o in progress.outputs if o.output_type == "execute_result"]
    assert result[0].data["text/plain"] == "724"
    streams = "".join(o.text for o in progress.outputs if o.output_type == "stream")
    assert "IProgress" not in streams
    # One bar: its lines, once carriage returns are applied, show the total and nothing else.
    lines = [seg.split("\r")[-1] for seg in streams.split("\n") if seg.split("\r")[-1].strip()]
    assert len(lines) <= 1, lines
    # Every state the bar went through shows its total (no bar drawn before the total is
    # known, as tqdm's "0tasks [00:00, ?tasks/s]").
    states = [s for s in streams.replace("\n", "\r").split("\r") if s.strip()]
    assert states and all(re.search(r"\b\d+/[1-9]\d*\b", s) for s in states), states
