"""dancelinks.Family: every question against the list of solutions (brute force on random
problems), the models (8 queens: 92 solutions, marginals = the heat map), save and load, and
weighted n-queens against ``maximise``."""

import random
import subprocess

import numpy as np
import pytest

import dancelinks
import dancelinks.models as m


def random_problem(rng):
    primary = [f"p{i}" for i in range(rng.randint(2, 6))]
    secondary = [f"s{i}" for i in range(rng.randint(0, 2))]
    options = []
    for _ in range(rng.randint(1, 12)):
        items = sorted(set(rng.sample(primary, rng.randint(1, min(3, len(primary))))))
        for s in secondary:
            if rng.random() < 0.3:
                items.append(s + rng.choice(["", ":A", ":B"]))
        options.append(items)
    return dancelinks.Problem(primary, options, secondary=secondary)


def as_set(s):
    return tuple(sorted(s))


def test_every_question_agrees_with_the_listing():
    rng = random.Random(7)
    for _ in range(300):
        p = random_problem(rng)
        listed = sorted(as_set(s) for s in p.solutions())
        f = p.family()
        assert f.count == len(listed) == len(f)
        assert sorted(as_set(s) for s in f) == listed
        marg = f.marginals()
        assert marg.dtype == np.int64 and len(marg) == len(p.options)
        for o in range(len(p.options)):
            assert marg[o] == sum(o in s for s in listed)
        picks = rng.sample(range(len(p.options)), min(2, len(p.options)))
        inc = f.including(picks)
        exc = f.excluding(picks)
        assert sorted(as_set(s) for s in inc) == [s for s in listed if all(o in s for o in picks)]
        assert sorted(as_set(s) for s in exc) == [
            s for s in listed if not any(o in s for o in picks)
        ]
        weights = [rng.randint(-3, 5) for _ in p.options]
        values = sorted((sum(weights[o] for o in s) for s in listed), reverse=True)
        best = f.best(weights, k=3)
        assert [v for v, _ in best] == values[:3]
        assert all(v == sum(weights[o] for o in s) for v, s in best)
        assert [v for v, _ in f.best(weights, k=2, maximize=False)] == sorted(values)[:2]
        if listed:
            assert list(f[0]) == list(next(iter(f))) and list(f[-1]) == list(list(f)[-1])
        with pytest.raises(IndexError):
            f[len(listed)]
        draws = f.sample(10, seed=3)
        assert len(draws) == (10 if listed else 0)
        assert all(as_set(d) in listed for d in draws)
        assert f.sample(10, seed=3) == draws


def test_eight_queens_family_and_heat_map():
    q = m.queens(8)
    f = q.family()
    assert f.count == 92 and f.nodes > 0 and f.bytes == 28 * (f.nodes + 2)
    heat = dancelinks.heatmap(8)
    assert np.array_equal(f.marginals().reshape(8, 8), heat)
    # The picture is the heat map's, drawn by the crate.
    assert f.heatmap().svg == dancelinks.draw_heatmap(heat).svg
    s = f.sample(1, seed=1)[0]
    assert isinstance(s, m.Solution)
    assert s.text.count("Q") == 8 and "<svg" in s.picture().svg
    with pytest.raises(ValueError, match="no heat-map picture"):
        m.matchings(6).family().heatmap()
    with pytest.raises(ValueError, match="no heat-map picture"):
        dancelinks.Problem(["a"], ["a"]).family().heatmap()
    # A tiling: a panel per piece, and per cell the panels add up to the solutions.
    svg = m.pentominoes("3x20").family().heatmap().svg
    assert svg.count('<g class="panel"') == 12
    counts = {}
    for t in svg.split("<title>")[1:]:
        cell, n = t.split("</title>")[0].rsplit(": ", 1)
        counts[cell] = counts.get(cell, 0) + int(n)
    assert len(counts) == 60 and set(counts.values()) == {8}


def test_the_best_queens_agree_with_maximise():
    """Weighted n-queens: the best of the family of all solutions under the board's weights
    is the maximum ``maximise`` finds (n up to 12, random boards of fixed seeds)."""
    for n in range(4, 13):
        rng = np.random.default_rng(n)
        board = rng.integers(0, 100, size=(n, n))
        q = m.queens(n)
        f = q.family()
        (value, sol), = f.best(board.reshape(-1), k=1)
        assert value == dancelinks.maximise(board).value
        assert value == sum(board[o // n, o % n] for o in sol)


def test_save_and_load(tmp_path):
    f = m.langford(7).family()
    path = tmp_path / "l7.zdd"
    f.save(path)
    g = dancelinks.Family.load(path)
    assert g.count == 52
    assert [list(s) for s in g] == [list(s) for s in f]
    assert all(t == f.options[i] for i, t in enumerate(g.options) if t)
    assert sum(1 for t in g.options if t) == sum(1 for c in f.marginals() if c)
    bad = tmp_path / "bad.zdd"
    bad.write_text("o 0 2 a\nn 2 0 0 0\nroot 2\n")
    with pytest.raises(ValueError, match=r"bad\.zdd:2: HI 0"):
        dancelinks.Family.load(bad)
    with pytest.raises(ValueError, match="memory budget"):
        dancelinks.Family.load(path, memory=4096)


def test_including_by_text_and_big_counts():
    # 2^70 solutions: 70 items with two options each; int64 does not hold the marginals.
    items = [f"p{i}" for i in range(70)]
    p = dancelinks.Problem(items, [[i] for i in items for _ in range(2)])
    f = p.family()
    assert f.count == 2**70
    with pytest.raises(OverflowError):
        len(f)
    marg = f.marginals()
    assert marg.dtype == object and marg[0] == 2**69
    assert f.including(["p0", "p1"]).count == 2**68
    with pytest.raises(ValueError, match="no option"):
        f.including(["nope"])
