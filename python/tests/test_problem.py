"""Exact-cover models of one's own: counts and solutions against brute force."""

import itertools
import random

import pytest

import dancelinks
from conftest import EXAMPLES

# Knuth's first example (TAOCP 7.2.2.1): items a..g, one exact cover (options 0, 3, 4 below).
KNUTH_ITEMS = list("abcdefg")
KNUTH_OPTIONS = ["c e", "a d g", "b c f", "a d f", "b g", "d e g"]


def parse_item(spec):
    """("name", u, v) of "u:v|name", "v|name" or "name"."""
    if "|" not in spec:
        return spec, 1, 1
    m, name = spec.split("|", 1)
    u, v = m.split(":") if ":" in m else (m, m)
    return name, int(u), int(v)


def brute_force(items, options, secondary=()):
    """Every set of options (as sorted index tuples) that covers each primary item u to v
    times and each secondary item at most once or by options of one colour."""
    bounds = {name: (u, v) for name, u, v in map(parse_item, items)}
    opts = [[tuple(t.split(":")) if ":" in t else (t, None) for t in o.split()] for o in options]
    found = []
    for r in range(len(options) + 1):
        for chosen in itertools.combinations(range(len(options)), r):
            used, colours = {}, {}
            for k in chosen:
                for name, c in opts[k]:
                    if name in bounds:
                        used[name] = used.get(name, 0) + 1
                    else:
                        colours.setdefault(name, []).append(c)
            shared = all(
                len(cs) <= 1 or (None not in cs and len(set(cs)) == 1) for cs in colours.values()
            )
            if shared and all(u <= used.get(name, 0) <= v for name, (u, v) in bounds.items()):
                found.append(chosen)
    return sorted(found)


def as_sets(solutions):
    return sorted(tuple(sorted(s)) for s in solutions)


def test_knuths_example_has_one_cover():
    p = dancelinks.Problem(KNUTH_ITEMS, KNUTH_OPTIONS)
    c = p.count()
    assert (c.count, c.status, int(c)) == (1, "complete", 1)
    (solution,) = p.solutions()
    assert sorted(p.format(solution)) == ["a d f", "b g", "c e"]
    assert as_sets(p.solutions()) == brute_force(KNUTH_ITEMS, KNUTH_OPTIONS)


def test_options_as_lists_and_repr():
    p = dancelinks.Problem(KNUTH_ITEMS, [o.split() for o in KNUTH_OPTIONS])
    assert p.count().count == 1
    assert p.items == KNUTH_ITEMS and p.options == KNUTH_OPTIONS
    assert "7 primary items" in repr(p)


def queens_problem(n):
    items = [f"r{i}" for i in range(n)] + [f"c{i}" for i in range(n)]
    secondary = [f"a{d}" for d in range(2 * n - 1)] + [f"b{d}" for d in range(2 * n - 1)]
    options = [f"r{r} c{c} a{r + c} b{r - c + n - 1}" for r in range(n) for c in range(n)]
    return dancelinks.Problem(items, options, secondary=secondary)


def test_queens_as_an_exact_cover_model():
    for n, total in [(4, 2), (6, 4), (8, 92)]:
        p = queens_problem(n)
        assert p.count().count == total
        sols = p.solutions()
        assert len(sols) == total
        layouts = {tuple(sorted((o // n, o % n) for o in s)) for s in sols}
        assert len(layouts) == total
    assert queens_problem(8).count(threads=1).count == 92


def test_taocp_colour_example_from_a_dlx_file():
    p = dancelinks.read_dlx(EXAMPLES / "taocp-colour.dlx")
    assert p.items == ["p", "q", "r"] and p.secondary == ["x", "y"]
    assert p.count().count == 1
    (solution,) = p.solutions()
    assert sorted(p.format(solution)) == ["p r x:A y", "q x:A"]
    assert as_sets(p.solutions()) == brute_force(p.items, p.options, p.secondary)
    assert p.option_lines == [3, 4, 5, 6, 7]


def test_colours_built_in_python():
    p = dancelinks.Problem(
        ["p", "q", "r"],
        ["p q x y:A", "p r x:A y", "p x:B", "q x:A", "r y:B"],
        secondary=["x", "y"],
    )
    assert as_sets(p.solutions()) == [(1, 3)]


def test_multiplicities():
    p = dancelinks.read_dlx(EXAMPLES / "multiplicity.dlx")
    expected = brute_force(p.items, p.options, p.secondary)
    assert p.count().count == len(expected) > 0
    assert as_sets(p.solutions()) == expected
    q = dancelinks.Problem(["1:2|a", "b"], ["a", "a b", "b"])
    assert as_sets(q.solutions()) == brute_force(["1:2|a", "b"], ["a", "a b", "b"])


def test_random_problems_equal_brute_force():
    rng = random.Random(5)
    for _ in range(40):
        primary = ["p0", "p1", "p2", "p3"]
        if rng.random() < 0.3:
            primary[0] = "0:2|p0"
        secondary = ["s0", "s1"]
        options = []
        for _ in range(rng.randint(1, 9)):
            names = rng.sample(["p0", "p1", "p2", "p3", "s0", "s1"], rng.randint(1, 3))
            if not any(n.startswith("p") for n in names):
                names.append("p1")
            names = [
                n + rng.choice(["", "", ":A", ":B"]) if n.startswith("s") else n for n in names
            ]
            options.append(" ".join(names))
        p = dancelinks.Problem(primary, options, secondary=secondary)
        expected = brute_force(primary, options, secondary)
        assert p.count().count == len(expected), options
        assert as_sets(p.solutions()) == expected, options


def test_minimise_and_maximise_costs():
    p = dancelinks.read_dlx(EXAMPLES / "costs.dlx")
    covers = brute_force(p.items, p.options, p.secondary)
    totals = sorted(sum(p.costs[k] for k in c) for c in covers)
    lo, hi = p.minimise(), p.maximise()
    assert (lo.status, lo.value, lo.bound) == ("optimal", totals[0], totals[0])
    assert (hi.status, hi.value) == ("optimal", totals[-1])
    assert sum(p.costs[k] for k in lo.solutions[0]) == lo.value
    assert p.minimise(top=10).values == totals
    q = dancelinks.Problem(["a", "b"], ["a", "b", "a b"], costs=[1, 1, 5])
    assert q.minimise().value == 2 and q.maximise().value == 5


def test_limit_and_time_limit():
    p = queens_problem(8)
    assert p.count(limit=10).count == 10 and p.count(limit=10).status == "limit"
    assert len(p.solutions(limit=7)) == 7
    big = queens_problem(16)
    c = big.count(time_limit=0.2, memo=False)
    assert c.status == "time" and c.count < 14772512
    assert big.solutions(time_limit=0.05, limit=10**9) is not None


@pytest.mark.parametrize(
    "items, options, secondary, message",
    [
        (["a"], ["b"], (), "b"),
        (["a"], ["a a"], (), "a"),
        (["a"], ["a:R"], (), "colour"),
        (["a", "a"], ["a"], (), "a"),
        (["x|a"], ["a"], (), "invalid item name"),
        (["0|a"], ["a"], (), "multiplicity"),
        (["a"], ["a"], ["a"], "a"),
    ],
)
def test_bad_models_raise_value_error(items, options, secondary, message):
    with pytest.raises(ValueError, match=message):
        dancelinks.Problem(items, options, secondary=secondary)


def test_bad_costs():
    with pytest.raises(ValueError, match="a cost must be 0 to"):
        dancelinks.Problem(["a"], ["a"], costs=[-1])
    with pytest.raises(ValueError, match="1 costs for 2 options"):
        dancelinks.Problem(["a"], ["a", "a"], costs=[1])


def test_read_dlx_errors(tmp_path):
    with pytest.raises(ValueError, match=r"unknown-item\.dlx:\d+:\d+: "):
        dancelinks.read_dlx(EXAMPLES / "unknown-item.dlx")
    # In Python's words, as open() says it: the subclass by errno, the file named.
    with pytest.raises(FileNotFoundError, match=r"No such file or directory: '.*missing\.dlx'"):
        dancelinks.read_dlx(tmp_path / "missing.dlx")
    with pytest.raises(IsADirectoryError, match="it is a directory"):
        dancelinks.read_dlx(tmp_path)
    bad = tmp_path / "bad.dlx"
    bad.write_text("a b\na c\n")
    with pytest.raises(ValueError, match=r"bad\.dlx:2:3: "):
        dancelinks.read_dlx(bad)


def cli_json(xcover, *args):
    import json
    import subprocess

    out = subprocess.run(
        [str(xcover), "solve", *map(str, args), "--format", "json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize(
    "name, limit",
    [
        ("taocp-colour.dlx", None),
        ("multiplicity.dlx", None),
        ("costs.dlx", None),
        ("queens13.dlx", 300),
    ],
)
def test_solutions_equal_the_command_line(xcover, name, limit):
    path = EXAMPLES / name
    p = dancelinks.read_dlx(path)
    args = [path] + (["--limit", limit] if limit else [])
    records = [r for r in cli_json(xcover, *args) if r["record"] == "solution"]
    mine = p.solutions(limit=limit)
    assert len(mine) == len(records) > 0
    for solution, record in zip(mine, records):
        assert p.format(solution) == record["options"]
        assert [p.option_lines[o] for o in solution] == record["lines"]
    (count,) = cli_json(xcover, path, "--count")
    assert p.count().count == count["solutions"]


@pytest.mark.parametrize("sense", ["--minimize", "--maximize"])
def test_optimum_equals_the_command_line(xcover, sense):
    path = EXAMPLES / "costs.dlx"
    p = dancelinks.read_dlx(path)
    records = cli_json(xcover, path, sense, "--top", "3")
    optimum = records[-1]
    mine = (p.minimise if sense == "--minimize" else p.maximise)(top=3)
    assert (mine.status, mine.value, mine.bound, mine.nodes) == (
        optimum["status"],
        optimum["cost"],
        optimum["bound"],
        optimum["nodes"],
    )
    solutions = [r for r in records if r["record"] == "solution"]
    assert [p.format(s) for s in mine.solutions] == [r["options"] for r in solutions]
    assert mine.values == [r["cost"] for r in solutions]
