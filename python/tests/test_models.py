"""dancelinks.models: the models of `xcover model`, checked against known counts and
independent checks written here (a sudoku checker, brute-force tilings and word squares)."""

import itertools
import subprocess
import xml.dom.minidom

import numpy as np
import pytest

import dancelinks
import dancelinks.models as m
from conftest import EXAMPLES, non_attacking

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def valid_sudoku(grid, clues):
    """Every row, column and box holds 1..9, and the clues are kept."""
    g = np.asarray(grid).reshape(9, 9)
    c = np.asarray(clues).reshape(9, 9)
    units = [g[r, :] for r in range(9)] + [g[:, k] for k in range(9)]
    units += [g[3 * (b // 3) : 3 * (b // 3) + 3, 3 * (b % 3) : 3 * (b % 3) + 3] for b in range(9)]
    full = all(sorted(np.asarray(u).reshape(-1).tolist()) == list(range(1, 10)) for u in units)
    return full and bool(np.all((c == 0) | (c == g)))


def clues_of(line):
    return np.array([0 if ch in ".0" else int(ch) for ch in line]).reshape(9, 9)


def well_formed(svg):
    doc = xml.dom.minidom.parseString(svg)
    assert doc.documentElement.tagName == "svg"
    return doc


def test_known_counts():
    assert m.langford(7).count().count == 52
    assert m.matchings(10).count().count == 945  # 9!! = 945
    assert m.queens(8).count().count == 92
    assert m.pentominoes("3x20").count().count == 8
    assert m.dominoes(6, 6).count().count == 6728
    assert m.dominoes(4, 4).count().count == 36


def test_coloured_models():
    # 2 colours on 2x3, any border: 416, the count an independent backtracking counter gives
    # (tests/cli/model.rs); the border of one colour leaves fewer.
    assert m.macmahon(2, 3, colours=2, border=None).count().count == 416
    assert m.macmahon(2, 3, colours=2).count().count < 416
    # A puzzle cut from a solved grid has a solution; the same seed, the same puzzle.
    puzzle = m.edge_matching(3, 3, colours=3, seed=5)
    (first,) = puzzle.solutions(limit=1)
    assert puzzle.count().count >= 1
    assert m.edge_matching(3, 3, colours=3, seed=5).count().count == puzzle.count().count
    xml.dom.minidom.parseString(first._repr_svg_())


def test_pentominoes_6x10_as_the_command_line():
    # Every solution counted, symmetric images too: 4 x 2,339 tilings up to symmetry.
    assert m.pentominoes().count().count == 9356


def test_sudoku_has_one_solution_that_keeps_the_clues():
    model = m.sudoku(PUZZLE)
    assert isinstance(model, dancelinks.Problem)
    assert model.count().count == 1
    (s,) = model.solutions()
    assert s.array.shape == (9, 9) and s.array.dtype == np.uint8
    assert valid_sudoku(s.array, clues_of(PUZZLE))
    assert s.text.replace("\n", "") == "".join(map(str, s.array.reshape(-1)))
    assert np.array_equal(model.puzzle, clues_of(PUZZLE))
    # The same puzzle as a 9x9 array.
    same = m.sudoku(clues_of(PUZZLE))
    assert np.array_equal(same.first().array, s.array)
    doc = well_formed(s.to_svg())
    assert len(doc.getElementsByTagName("rect")) == 81
    assert s._repr_svg_() == s.to_svg()


def test_an_empty_sudoku_has_valid_solutions():
    sols = m.sudoku("." * 81).solutions(limit=5)
    assert len(sols) == 5
    assert len({tuple(s.array.reshape(-1)) for s in sols}) == 5
    assert all(valid_sudoku(s.array, np.zeros(81)) for s in sols)


@pytest.mark.parametrize(
    "bad, message",
    [
        (PUZZLE[:80], "81 cells"),
        (PUZZLE[:10] + "x" + PUZZLE[11:], "column 11"),
        ("55" + PUZZLE[2:], "repeats"),
    ],
)
def test_bad_sudokus_say_where(bad, message):
    with pytest.raises(ValueError, match=message):
        m.sudoku(bad)
    with pytest.raises(ValueError):
        m.sudoku(np.full((9, 9), 10))


def test_solve_sudokus_in_one_call():
    puzzles = [PUZZLE, "." * 81, PUZZLE]
    batch = m.solve_sudokus(puzzles, limit=2)
    assert batch.counts.tolist() == [1, 2, 1]
    assert batch.solutions.shape == (3, 9, 9)
    for i, p in enumerate(puzzles):
        for g in batch.grids[i]:
            assert valid_sudoku(g, clues_of(p))
    assert np.array_equal(batch.solutions[0], m.sudoku(PUZZLE).first().array)
    # An impossible puzzle: no solution, zeros.
    impossible = "12345678." + "." * 8 + "9" + "." * 63
    b = m.solve_sudokus([impossible], threads=1)
    assert b.counts.tolist() == [0] and not b.solutions.any()
    # A file's text and an array of puzzles.
    text = f"# two puzzles\n{PUZZLE}\n\n{PUZZLE}\n"
    assert m.solve_sudokus(text).counts.tolist() == [1, 1]
    arr = np.stack([clues_of(PUZZLE)] * 4)
    assert np.array_equal(m.solve_sudokus(arr).solutions[3], batch.solutions[0])
    well_formed(batch.picture(0).to_svg())
    with pytest.raises(ValueError, match="puzzle 1, column 1"):
        m.solve_sudokus([PUZZLE, "x" + PUZZLE[1:]])


def test_pentomino_tilings_decode_to_their_pieces():
    model = m.pentominoes("3x20")
    for s in model.solutions():
        a = s.array
        assert a.shape == (3, 20)
        letters, counts = np.unique(a, return_counts=True)
        assert "".join(letters) == "FILNPTUVWXYZ" and set(counts) == {5}
        well_formed(s.to_svg())


def brute_tilings(board, pieces):
    """Tilings counted by filling the first empty cell with an unused piece in some
    orientation, without exact cover."""
    cells = {(r, c) for r, row in enumerate(board) for c, x in enumerate(row) if x}
    shapes = []
    for p in pieces:
        base = [(r, c) for r, row in enumerate(p) for c, x in enumerate(row) if x]
        seen = set()
        for t in range(8):
            v = [((c, r) if t & 4 else (r, c)) for r, c in base]
            v = [(-r if t & 1 else r, -c if t & 2 else c) for r, c in v]
            r0, c0 = min(r for r, _ in v), min(c for _, c in v)
            seen.add(tuple(sorted((r - r0, c - c0) for r, c in v)))
        shapes.append(sorted(seen))

    def go(free, used):
        if not free:
            return 1
        r, c = min(free)
        total = 0
        for k, orients in enumerate(shapes):
            if k in used:
                continue
            for o in orients:
                ar, ac = o[0]
                placed = {(r + dr - ar, c + dc - ac) for dr, dc in o}
                if placed <= free:
                    total += go(free - placed, used | {k})
        return total

    return go(frozenset(cells), frozenset())


def test_polyominoes_on_pictured_and_array_boards():
    trominoes = {"I": "###", "L": "##/#.", "J": "##\n.#", "O": np.array([[1, 1], [1, 1]], bool)}
    picture = ".....\n.#...\n....\n"
    board = [[ch == "." for ch in line.ljust(5, "#")] for line in picture.splitlines()]
    pieces = [
        [[True, True, True]],
        [[True, True], [True, False]],
        [[True, True], [False, True]],
        [[True, True], [True, True]],
    ]
    expected = brute_tilings(board, pieces)
    assert expected > 0
    assert m.polyominoes(picture, trominoes).count().count == expected
    assert m.polyominoes(np.array(board), trominoes).count().count == expected
    # A built-in board by name and drawn as a picture.
    assert m.pentominoes(("." * 20 + "\n") * 3).count().count == 8
    with pytest.raises(ValueError, match="cells"):
        m.pentominoes("6x6")
    with pytest.raises(ValueError, match="'x' in a board picture"):
        m.polyominoes("..x\n", trominoes)


def test_langford_matchings_queens_decode():
    for s in m.langford(7).solutions():
        row = s.array.tolist()
        for k in range(1, 8):
            i, j = [p for p, x in enumerate(row) if x == k]
            assert j - i == k + 1
    sols = m.matchings(6).solutions()
    assert len(sols) == 15
    for s in sols:
        assert s.array.shape == (3, 2) and sorted(s.array.reshape(-1)) == list(range(1, 7))
        well_formed(s.to_svg())
    layouts = [tuple(s.array.tolist()) for s in m.queens(6).solutions()]
    assert len(layouts) == 4 and all(non_attacking(q) for q in layouts)
    well_formed(m.queens(8).first().to_svg())
    well_formed(m.langford(4).first().to_svg())


def brute_word_squares(words):
    k = len(words[0])
    found = 0
    for rows in itertools.product(words, repeat=k):
        cols = ["".join(r[j] for r in rows) for j in range(k)]
        all_words = list(rows) + cols
        if all(c in words for c in cols) and len(set(all_words)) == 2 * k:
            found += 1
    return found


def test_word_squares_agree_with_a_brute_force(tmp_path):
    words = [w.strip() for w in (EXAMPLES / "words3.txt").read_text().split() if w.strip()]
    words = [w for w in words if not w.startswith("#")][:40]
    model = m.word_squares(words)
    assert model.count().count == brute_word_squares(words)
    first = model.first()
    if first is not None:
        a = first.array
        assert a.shape == (3, 3)
        assert all("".join(r) in words for r in a) and all("".join(c) in words for c in a.T)
        well_formed(first.to_svg())
    path = tmp_path / "words.txt"
    path.write_text("\n".join(words) + "\n")
    assert m.word_squares(path).count().count == model.count().count
    with pytest.raises(ValueError, match="word 2"):
        m.word_squares(["abc", "ab"])


def brute_dominoes(rows, cols):
    """{number of horizontal dominoes: tilings} of a rows x cols rectangle."""
    out = {}

    def go(free, h):
        if not free:
            out[h] = out.get(h, 0) + 1
            return
        r, c = min(free)
        if (r, c + 1) in free:
            go(free - {(r, c), (r, c + 1)}, h + 1)
        if (r + 1, c) in free:
            go(free - {(r, c), (r + 1, c)}, h)

    go(frozenset((r, c) for r in range(rows) for c in range(cols)), 0)
    return out


def test_dominoes_with_bounds_agree_with_a_brute_force():
    by_h = brute_dominoes(4, 5)
    assert m.dominoes(4, 5).count().count == sum(by_h.values())
    assert m.dominoes(4, 5, horizontal=(2, 4)).count().count == sum(
        v for h, v in by_h.items() if 2 <= h <= 4
    )
    assert m.dominoes(4, 5, horizontal=4).count().count == by_h.get(4, 0)
    s = m.dominoes(2, 3).first()
    assert set(s.array.reshape(-1)) <= set("<>^v")
    well_formed(s.to_svg())


def test_a_model_is_a_problem():
    model = m.langford(3)
    assert isinstance(model, dancelinks.Problem)
    assert model.name == "langford" and model.title == "Langford pairs, n = 3"
    s = model.first()
    assert isinstance(s, m.Solution) and isinstance(s, list)
    assert model.decode(list(s)).array.tolist() == s.array.tolist()
    assert model.format(s) == [model.options[o] for o in s]
    with pytest.raises(ValueError, match="option"):
        _ = model.decode([10**6]).array
    assert "Langford" in repr(model)


def test_the_same_problems_as_the_command_line(xcover):
    for args, model in [
        (["langford", "5"], m.langford(5)),
        (["sudoku", PUZZLE], m.sudoku(PUZZLE)),
        (["pentominoes", "3x20"], m.pentominoes("3x20")),
        (["dominoes", "3", "4", "--horizontal", "2:4"], m.dominoes(3, 4, horizontal=(2, 4))),
    ]:
        text = subprocess.run(
            [str(xcover), "model", *args], check=True, capture_output=True, text=True
        ).stdout
        lines = [ln for ln in text.splitlines() if ln and not ln.startswith("|")]
        assert lines[1:] == model.options, args


def test_the_models_are_the_crate_s_list(xcover):
    names = [name for name, _, _ in m.MODELS]
    assert len(names) == 9 and "polyomino" in names and "edge-matching" in names
    for _, _, function in m.MODELS:
        assert function in m.__all__ and callable(getattr(m, function)), function
    built = [m.langford(3), m.pentominoes("3x20"), m.queens(4), m.macmahon(2, 3, 2, None)]
    assert {b.name for b in built} <= set(names)
    helptext = subprocess.run(
        [str(xcover), "model", "--help"], check=True, capture_output=True, text=True
    ).stdout
    for _, command, _ in m.MODELS:
        assert f"  {command} " in helptext, command


def test_model_errors_name_no_command_line_flag():
    with pytest.raises(ValueError) as e:
        m.pentominoes("banana")
    text = str(e.value)
    assert "unknown board 'banana'" in text and "6x10" in text
    assert "--" not in text, text


def test_every_long_model_call_takes_progress():
    model = m.langford(8)
    calls = []
    result = model.count(progress=lambda *a: calls.append(a))
    assert result.count == 300
    # The last report is the end: every part of the split done, every solution counted.
    done, total, found = calls[-1]
    assert done == total and found == 300, calls[-3:]
    listed = []
    sols = model.solutions(limit=50, progress=lambda *a: listed.append(a))
    assert len(sols) == 50 and listed[-1] == (50, 50, 50)
    q = m.queens(6)
    assert [len(s) for s in q.solutions(progress=True)] == [6] * 4
    best = dancelinks.Problem(["a", "b"], ["a", "b", "a b"], costs=[1, 2, 5])
    seen = []
    assert best.minimise(progress=lambda *a: seen.append(a)).value == 3
    assert best.maximise(progress=True).value == 5
    assert seen and all(len(a) == 3 for a in seen)
