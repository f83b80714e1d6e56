"""N-queens: counts, listings and heatmaps against OEIS and brute force."""

import numpy as np
import pytest

import dancelinks
from conftest import brute_force_queens, non_attacking

# OEIS A000170 and A002562 (fundamental solutions), n = 1..12.
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200]
A002562 = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787]


@pytest.mark.parametrize("n", range(1, 13))
def test_count_is_a000170(n):
    assert dancelinks.count(n) == A000170[n - 1]


@pytest.mark.parametrize("n", range(1, 13))
def test_unique_count_is_a002562(n):
    assert dancelinks.count(n, unique=True) == A002562[n - 1]


@pytest.mark.parametrize("n", [1, 4, 6, 8, 10])
def test_engines_agree(n):
    counts = {e: dancelinks.count(n, engine=e, threads=t) for e in ("dlx", "bits") for t in (1,)}
    assert set(counts.values()) == {A000170[n - 1]}
    assert dancelinks.count(n, engine="dlx", unique=True) == A002562[n - 1]


def test_count_fits_beyond_int64_types():
    assert isinstance(dancelinks.count(np.int64(8)), int)
    assert dancelinks.count(np.int64(8)) == 92


def test_count_progress_callback_sees_the_whole_split():
    calls = []
    total = dancelinks.count(14, progress=lambda *a: calls.append(a))
    assert total == 365596
    for done, tasks, found in calls:
        assert 0 <= done <= tasks and 0 <= found <= total
    # The last report is the end: every task done, every solution found.
    done, tasks, found = calls[-1]
    assert done == tasks > 0 and found == total


def test_solutions_of_8_are_the_92_distinct_layouts():
    a = dancelinks.solutions(8)
    assert a.shape == (92, 8) and a.dtype == np.uint8
    rows = [tuple(r) for r in a.tolist()]
    assert len(set(rows)) == 92
    assert all(non_attacking(r) for r in rows)
    # Lexicographic order, equal to the brute-force listing.
    assert rows == brute_force_queens(8)


@pytest.mark.parametrize("n", [1, 4, 5, 6, 7])
def test_solutions_equal_brute_force(n):
    rows = [tuple(r) for r in dancelinks.solutions(n).tolist()]
    assert rows == brute_force_queens(n)
    assert dancelinks.solutions(n, threads=1).tolist() == dancelinks.solutions(n).tolist()


def test_solutions_limit_and_iterator():
    first = dancelinks.solutions(10, limit=5)
    assert first.shape == (5, 10)
    assert first.tolist() == dancelinks.solutions(10)[:5].tolist()
    it = dancelinks.iter_solutions(10)
    assert [next(it) for _ in range(5)] == [tuple(r) for r in first.tolist()]
    assert len(list(dancelinks.iter_solutions(12))) == 14200
    assert len(list(dancelinks.iter_solutions(8, limit=10))) == 10


def test_unique_solutions_with_class_sizes_cover_every_solution():
    for n in range(1, 11):
        reps, sizes = dancelinks.solutions(n, unique=True, class_sizes=True)
        assert len(reps) == A002562[n - 1]
        assert int(sizes.sum()) == A000170[n - 1]
        assert set(sizes.tolist()) <= {1, 2, 4, 8}
        assert all(non_attacking(r) for r in reps.tolist())


def test_solutions_table_in_pandas():
    pd = pytest.importorskip("pandas")
    a = dancelinks.solutions(6)
    df = pd.DataFrame(a, columns=[f"q{r}" for r in range(6)])
    assert len(df) == 4 and list(df.iloc[0]) == [1, 3, 5, 0, 2, 4]


@pytest.mark.parametrize("n", [1, 4, 5, 6, 8, 9, 11])
def test_heatmap_sums_and_brute_force(n):
    h = dancelinks.heatmap(n)
    total = A000170[n - 1]
    assert h.shape == (n, n) and h.dtype == np.int64
    assert (h.sum(axis=0) == total).all() and (h.sum(axis=1) == total).all()
    if n <= 8:
        expected = np.zeros((n, n), dtype=np.int64)
        for files in brute_force_queens(n):
            expected[range(n), files] += 1
        assert (h == expected).all()
    # The board's symmetries: the heatmap is invariant under them.
    assert (h == h.T).all() and (h == h[::-1]).all() and (h == h[:, ::-1]).all()


def test_unique_heatmap_sums_to_class_count():
    h = dancelinks.heatmap(8, unique=True)
    assert (h.sum(axis=1) == 12).all()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: dancelinks.count(0), "1 to"),
        (lambda: dancelinks.count(33), "1 to 32"),
        (lambda: dancelinks.count(8, engine="fast"), "engine must be"),
        (lambda: dancelinks.count(8, threads=5000), "threads must be"),
        (lambda: dancelinks.solutions(0), "n must be"),
        (lambda: dancelinks.solutions(8, limit=0), "limit must be"),
        (lambda: dancelinks.heatmap(99), "n must be"),
    ],
)
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_bad_types_raise_type_error():
    with pytest.raises(TypeError):
        dancelinks.count("8")
    with pytest.raises(TypeError):
        dancelinks.count(8.0)


@pytest.mark.parametrize(
    "engine, unique", [("dlx", False), ("dlx", True), ("bits", False), ("bits", True)]
)
def test_a_count_is_one_call_of_the_counter_and_says_it_ended_whole(engine, unique):
    from dancelinks import _native

    calls = []
    got = _native.count(12, unique, engine, 0, lambda *a: calls.append(a))
    assert got == (14200, 1787 if unique else None, engine, False)
    done, total, found = calls[-1]
    assert done == total > 0 and found == 14200


def test_an_exception_in_the_progress_callback_stops_the_count():
    class Stop(Exception):
        pass

    def fail(done, total, found):
        raise Stop(f"{done} of {total}")

    with pytest.raises(Stop):
        dancelinks.count(12, engine="dlx", progress=fail)
    with pytest.raises(TypeError, match="progress must be"):
        dancelinks.count(8, progress="yes")
