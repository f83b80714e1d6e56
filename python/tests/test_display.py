"""Rich display: SVG pictures of results (drawn by the crate's writers), files, progress bars,
and the error of an import from the source folder."""

import os
import shutil
import subprocess
import sys
import warnings
import xml.dom.minidom
from pathlib import Path

import numpy as np
import pytest

import dancelinks
from dancelinks import _display

PACKAGE = Path(dancelinks.__file__).parent


def parse(svg):
    doc = xml.dom.minidom.parseString(svg)
    assert doc.documentElement.tagName == "svg"
    assert doc.documentElement.getAttribute("viewBox")
    return doc


def texts(doc):
    return [t.firstChild.data for t in doc.getElementsByTagName("text") if t.firstChild]


def test_a_max_result_draws_its_weighted_board_and_queens(tmp_path):
    w = np.arange(1, 65).reshape(8, 8)
    r = dancelinks.maximise(w)
    doc = parse(r._repr_svg_())
    assert len(doc.getElementsByTagName("rect")) == 64
    circles = doc.getElementsByTagName("circle")
    assert len(circles) == 8
    # Each queen's circle stands on the square of its layout: 40-pixel squares.
    centres = sorted((float(c.getAttribute("cy")), float(c.getAttribute("cx"))) for c in circles)
    assert [int(x // 40) for _, x in centres] == r.layout.tolist()
    words = texts(doc)
    assert f"board 1: {r.value} (optimal)" in words
    assert set(map(str, range(1, 65))) <= set(words)  # the weights, written in
    path = tmp_path / "best.svg"
    r.save(path)
    assert path.read_text() == r.to_svg() == r.picture().svg


def test_a_stack_of_results_is_one_picture():
    rng = np.random.default_rng(5)
    boards = rng.integers(0, 100, size=(3, 6, 6))
    res = dancelinks.maximise(boards)
    doc = parse(res._repr_svg_())
    assert len(doc.getElementsByTagName("circle")) == 3 * 6
    assert len(doc.getElementsByTagName("g")) == 3
    assert [t for t in texts(doc) if t.startswith("board ")] == [
        f"board {k}: {r.value} (optimal)" for k, r in enumerate(res, 1)
    ]


def test_a_board_without_layout_and_a_result_made_by_hand():
    r = dancelinks.maximise(np.ones((3, 3), dtype=np.int64))
    doc = parse(r.to_svg())
    assert r.status == "infeasible" and not doc.getElementsByTagName("circle")
    bare = dancelinks.MaxResult(1, 4, "optimal", 1, 1, np.zeros((0, 4)), np.zeros(0))
    assert bare._repr_svg_() is None  # no weights: nothing to show, the text repr instead
    with pytest.raises(ValueError, match="weights"):
        bare.to_svg()


def test_solutions_sheet_and_one_solution():
    sols, sizes = dancelinks.solutions(8, unique=True, class_sizes=True)
    doc = parse(dancelinks.draw_solutions(sols, sizes).to_svg())
    assert len(doc.getElementsByTagName("circle")) == 12 * 8
    labels = [t for t in texts(doc) if t.startswith("#")]
    assert labels[0] == f"#1 (class of {sizes[0]})" and len(labels) == 12
    one = dancelinks.draw_solution(sols[0], label="first")
    doc = parse(one._repr_svg_())
    assert len(doc.getElementsByTagName("circle")) == 8 and "first" in texts(doc)
    weighted = parse(dancelinks.draw_solution(sols[0], np.arange(64).reshape(8, 8)).to_svg())
    assert "63" in texts(weighted)
    with pytest.raises(ValueError, match="1000"):
        dancelinks.draw_solutions(np.zeros((1001, 4), dtype=np.uint8))
    with pytest.raises(ValueError):
        dancelinks.draw_solution([0, 9, 1])  # a file off the board


def test_heatmap_picture():
    h = dancelinks.heatmap(6)
    doc = parse(dancelinks.draw_heatmap(h).to_svg())
    words = texts(doc)
    assert "6-queens: where the queens stand (4 solutions)" in words
    assert f"max {h.max()}" in words and f"min {h.min()}" in words
    assert len(doc.getElementsByTagName("title")) == 36


def test_picture_files(tmp_path):
    p = dancelinks.draw_heatmap(dancelinks.heatmap(5))
    p.save(tmp_path / "h.svg")
    assert (tmp_path / "h.svg").read_text() == p.to_svg() == p._repr_svg_()
    assert "SVG" in repr(p)


def test_progress_bar_starts_at_the_first_report(capsys):
    pytest.importorskip("tqdm")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        update, close = _display.progress_bar("tasks")
        close()  # never reported: no bar at all
    assert capsys.readouterr().err == ""
    update, close = _display.progress_bar("tasks")
    update(1, 10, 3)
    update(10, 10, 666090624)
    close()
    err = capsys.readouterr().err
    # Counts whole, not tqdm's 6.66e+8.
    assert "10/10" in err and "found=666090624" in err and "0/0" not in err
    assert "e+" not in err
    assert dancelinks.count(8, progress=True) == 92
    # A model's count (a Problem's) takes a bar too, with its total once the split is made.
    import dancelinks.models as m

    assert m.pentominoes("3x20").count(progress=True).count == 8
    assert "solutions=8" in capsys.readouterr().err


def test_import_from_the_source_folder_says_why(tmp_path):
    # A copy of the package without its native module, as the source folder python/dancelinks.
    src = tmp_path / "dancelinks"
    src.mkdir()
    for f in PACKAGE.glob("*.py"):
        shutil.copy(f, src / f.name)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    got = subprocess.run(
        [sys.executable, "-c", "import dancelinks"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
    )
    assert got.returncode != 0
    assert "ImportError: dancelinks: the native module dancelinks._native is not in" in got.stderr
    assert "run Python from another folder" in got.stderr
