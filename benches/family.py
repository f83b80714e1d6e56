"""Timings of dancelinks.Family from Python, one run each (compare ratios on a loaded
machine): the 6×10 pentominoes (the family's build against the memoised count; marginals,
1,000 samples and the best 10 together), diagrams of 0.65 and 1.9 million nodes (Langford
pairs of 12, the perfect matchings of the 16×16 grid: count, marginals, best 10, 1,000
samples, including and excluding an option), and weighted n-queens (the best of the family
against ``maximise`` on 10 random boards).

    pip install ./python
    python benches/family.py
"""

import time

import numpy as np

import dancelinks
import dancelinks.models as m


def timed(f):
    t = time.perf_counter()
    out = f()
    return out, time.perf_counter() - t


def grid(k):
    """Perfect matchings of the k×k grid graph: the vertices are the items, the edges options."""
    items = [f"v{r}_{c}" for r in range(k) for c in range(k)]
    options = []
    for r in range(k):
        for c in range(k):
            if c + 1 < k:
                options.append([f"v{r}_{c}", f"v{r}_{c + 1}"])
            if r + 1 < k:
                options.append([f"v{r}_{c}", f"v{r + 1}_{c}"])
    return dancelinks.Problem(items, options)


def pentominoes():
    p = m.pentominoes("6x10")
    c, tc = timed(lambda: p.count(memo=True, threads=1))
    f, tb = timed(lambda: p.family())
    assert f.count == c.count == 9356
    w = np.random.default_rng(1).integers(0, 100, len(p.options))
    _, tm = timed(lambda: f.marginals())
    _, ts = timed(lambda: f.sample(1000, seed=1))
    _, tbest = timed(lambda: f.best(w, k=10))
    print(f"| pentominoes 6×10: count --memo on, one thread | {tc:.2f} s | {f.nodes} nodes |")
    print(f"| pentominoes 6×10: the family built | {tb:.2f} s | {f.bytes} bytes kept |")
    print(f"| pentominoes 6×10: marginals + 1,000 samples + best 10 | {tm + ts + tbest:.4f} s | "
          f"{tm:.4f} + {ts:.4f} + {tbest:.4f} s |")


def large(name, problem):
    f, tb = timed(lambda: problem.family(memory=4 << 30))
    w = np.random.default_rng(1).integers(0, 100, len(problem.options))
    o = len(problem.options) // 2
    t = {}
    _, t["count"] = timed(lambda: f._f.count())
    _, t["marginals"] = timed(lambda: f.marginals())
    _, t["best 10"] = timed(lambda: f.best(w, k=10))
    _, t["1,000 samples"] = timed(lambda: f.sample(1000, seed=1))
    _, t["including"] = timed(lambda: f.including([o]).count)
    _, t["excluding"] = timed(lambda: f.excluding([o]).count)
    ops = ", ".join(f"{k} {v:.3f} s" for k, v in t.items())
    print(f"| {name}: {f.nodes:,} nodes, built in {tb:.2f} s | {ops} | |")


def weighted():
    for n in (8, 10, 12, 13, 14):
        rng = np.random.default_rng(n)
        boards = [rng.integers(0, 100, size=(n, n)) for _ in range(10)]
        f, tb = timed(lambda: m.queens(n).family(memory=4 << 30))
        best, tf = timed(lambda: [f.best(b.reshape(-1))[0][0] for b in boards])
        mx, tm = timed(lambda: [dancelinks.maximise(b).value for b in boards])
        assert best == mx
        print(f"| weighted {n}-queens, 10 boards | family: build {tb:.3f} s + {tf:.3f} s; "
              f"maximise: {tm:.3f} s | {f.nodes:,} nodes |")


if __name__ == "__main__":
    print("| what | time | notes |")
    print("|---|---|---|")
    pentominoes()
    large("Langford pairs of 12", m.langford(12))
    large("perfect matchings of the 16×16 grid", grid(16))
    weighted()
