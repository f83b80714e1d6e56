"""The family of solutions side by side with Graphillion, on the same families: the perfect
matchings of grid graphs (domino tilings of k×k, k = 8 to 14) and of K16. For each: build,
count, 1,000 uniform samples, the best 10 by random edge weights, including and excluding an
edge; seconds, each the time of one run, printed as a Markdown table.

    pip install ./python graphillion
    python benches/family_graphillion.py [--sizes 8,10,12,14] [--no-k16]

Without Graphillion it says so and exits 0 (xcover's column alone with --xcover-only).
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time

import dancelinks


def grid_edges(k):
    """The edges of the k×k grid graph, vertices (r, c) named r*k + c."""
    edges = []
    for r in range(k):
        for c in range(k):
            v = r * k + c
            if c + 1 < k:
                edges.append((v, v + 1))
            if r + 1 < k:
                edges.append((v, v + k))
    return list(range(k * k)), edges


def complete_edges(n):
    return list(range(n)), list(itertools.combinations(range(n), 2))


def timed(f):
    t = time.perf_counter()
    out = f()
    return out, time.perf_counter() - t


def with_xcover(vertices, edges, weights, edge):
    """The family as a dancelinks.Problem: the vertices are the items, each edge an option."""
    p = dancelinks.Problem([f"v{v}" for v in vertices], [[f"v{a}", f"v{b}"] for a, b in edges])
    times = {}
    f, times["build"] = timed(lambda: p.family(memory=4 << 30))
    count, times["count"] = timed(lambda: f.count)
    _, times["1,000 samples"] = timed(lambda: f.sample(1000, seed=1))
    best, times["best 10"] = timed(lambda: f.best(weights, k=10))
    i = edges.index(edge)
    inc, times["including"] = timed(lambda: f.including([i]).count)
    exc, times["excluding"] = timed(lambda: f.excluding([i]).count)
    assert inc + exc == count
    return count, [b[0] for b in best], times


def with_graphillion(vertices, edges, weights, edge):
    from graphillion import GraphSet

    GraphSet.set_universe(edges, traversal="bfs")
    times = {}
    gs, times["build"] = timed(
        lambda: GraphSet.graphs(degree_constraints={v: 1 for v in vertices})
    )
    count, times["count"] = timed(lambda: gs.len())
    _, times["1,000 samples"] = timed(lambda: list(itertools.islice(gs.rand_iter(), 1000)))
    w = {e: weights[k] for k, e in enumerate(edges)}
    top, times["best 10"] = timed(lambda: list(itertools.islice(gs.max_iter(w), 10)))
    inc, times["including"] = timed(lambda: gs.including(edge).len())
    exc, times["excluding"] = timed(lambda: gs.excluding(edge).len())
    assert inc + exc == count
    values = [sum(w[e] if e in w else w[(e[1], e[0])] for e in g) for g in top]
    return count, values, times


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="8,10,12,14")
    ap.add_argument("--no-k16", action="store_true")
    ap.add_argument("--xcover-only", action="store_true")
    args = ap.parse_args()
    try:
        import graphillion  # noqa: F401
    except ImportError:
        if not args.xcover_only:
            print("graphillion is not installed (pip install graphillion): skipped")
            return 0
    families = [(f"{k}×{k} grid", *grid_edges(k)) for k in map(int, args.sizes.split(","))]
    if not args.no_k16:
        families.append(("K16", *complete_edges(16)))
    ops = ["build", "count", "1,000 samples", "best 10", "including", "excluding"]
    print("| family | solutions | operation | xcover (s) | Graphillion (s) | ratio |")
    print("|---|---:|---|---:|---:|---:|")
    for name, vertices, edges in families:
        rng = random.Random(len(edges))
        weights = [rng.randint(0, 99) for _ in edges]
        edge = edges[len(edges) // 2]
        count, xbest, xt = with_xcover(vertices, edges, weights, edge)
        gt = None
        if not args.xcover_only:
            gcount, gbest, gt = with_graphillion(vertices, edges, weights, edge)
            assert gcount == count, (name, gcount, count)
            assert gbest == xbest, (name, gbest, xbest)
        for op in ops:
            g = "" if gt is None else f"{gt[op]:.4f}"
            r = None if gt is None else gt[op] / max(xt[op], 1e-6)
            ratio = "" if r is None else (f"{r:.0f}×" if r >= 10 else f"{r:.1f}×")
            print(f"| {name} | {count} | {op} | {xt[op]:.4f} | {g} | {ratio} |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
