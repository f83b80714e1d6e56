#!/usr/bin/env python3
"""Solve the weighted n-queens boards of `cargo bench --bench weighted` with HiGHS and CP-SAT.

The bench writes one seeded board per size to target/weighted-bench/n{N}.txt (classic format:
k, then k boards of n*n integers). This script solves the first board of each file as the
integer program of the issue -- x[r][c] binary, every rank and file sums to 1, every diagonal
(both directions) sums to at most 1, maximise sum w[r][c] x[r][c] -- with
  * HiGHS (PyPI `highspy`), one thread, and
  * OR-Tools CP-SAT (PyPI `ortools`), one worker, linearization_level 2,
and prints wall seconds, the value, the best bound and whether optimality was proven.

Usage: python3 benches/weighted_mip.py [--time 60] [--solvers highs,cpsat] FILE...
"""
import argparse
import sys
import time


def read_board(path):
    toks = open(path).read().split()
    k = int(toks[0])
    nums = [int(t) for t in toks[1:]]
    per = len(nums) // k
    n = int(round(per ** 0.5))
    assert n * n * k == len(nums), path
    return n, [nums[r * n:(r + 1) * n] for r in range(n)]


def diagonals(n):
    a = [[(r, d - r) for r in range(n) if 0 <= d - r < n] for d in range(2 * n - 1)]
    b = [[(r, r - d) for r in range(n) if 0 <= r - d < n] for d in range(-(n - 1), n)]
    return [x for x in a + b if len(x) > 1]


def solve_highs(n, w, limit):
    import highspy
    import numpy as np
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    h.setOptionValue("time_limit", float(limit))
    idx = lambda r, c: r * n + c
    inf = highspy.kHighsInf
    for r in range(n):
        for c in range(n):
            h.addVar(0.0, 1.0)
    h.changeColsIntegrality(n * n, np.arange(n * n, dtype=np.int32),
                            np.array([highspy.HighsVarType.kInteger] * (n * n)))
    h.changeColsCost(n * n, np.arange(n * n, dtype=np.int32),
                     np.array([float(w[r][c]) for r in range(n) for c in range(n)]))
    h.changeObjectiveSense(highspy.ObjSense.kMaximize)
    rows = [[idx(r, c) for c in range(n)] for r in range(n)] + \
           [[idx(r, c) for r in range(n)] for c in range(n)]
    for cols in rows:
        h.addRow(1.0, 1.0, len(cols), np.array(cols, dtype=np.int32), np.ones(len(cols)))
    for d in diagonals(n):
        cols = [idx(r, c) for r, c in d]
        h.addRow(-inf, 1.0, len(cols), np.array(cols, dtype=np.int32), np.ones(len(cols)))
    t = time.perf_counter()
    h.run()
    secs = time.perf_counter() - t
    info = h.getInfo()
    status = h.modelStatusToString(h.getModelStatus())
    return secs, info.objective_function_value, info.mip_dual_bound, status


def solve_cpsat(n, w, limit):
    from ortools.sat.python import cp_model
    m = cp_model.CpModel()
    x = [[m.NewBoolVar(f"x{r}_{c}") for c in range(n)] for r in range(n)]
    for r in range(n):
        m.AddExactlyOne(x[r])
    for c in range(n):
        m.AddExactlyOne([x[r][c] for r in range(n)])
    for d in diagonals(n):
        m.AddAtMostOne([x[r][c] for r, c in d])
    m.Maximize(sum(w[r][c] * x[r][c] for r in range(n) for c in range(n)))
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    s.parameters.linearization_level = 2
    s.parameters.max_time_in_seconds = float(limit)
    t = time.perf_counter()
    st = s.Solve(m)
    secs = time.perf_counter() - t
    return secs, s.ObjectiveValue(), s.BestObjectiveBound(), s.StatusName(st)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--time", type=float, default=60)
    ap.add_argument("--solvers", default="highs,cpsat")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    print(f"{'n':>3} {'solver':<7} {'status':<12} {'value':>8} {'bound':>10} {'seconds':>9}")
    for f in a.files:
        n, w = read_board(f)
        for name in a.solvers.split(","):
            fn = {"highs": solve_highs, "cpsat": solve_cpsat}[name]
            secs, val, bound, status = fn(n, w, a.time)
            print(f"{n:>3} {name:<7} {status:<12} {val:>8.0f} {bound:>10.1f} {secs:>9.2f}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
