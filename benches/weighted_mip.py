#!/usr/bin/env python3
"""Solve weighted n-queens boards with HiGHS, CP-SAT and xcover binaries, side by side.

The bench writes one seeded board per size to target/weighted-bench/n{N}.txt (classic format:
k, then k boards of n*n integers). This script solves the first board of each file as the
integer program -- x[r][c] binary, every rank and file sums to 1, every diagonal
(both directions) sums to at most 1, maximise sum w[r][c] x[r][c] -- with
  * HiGHS (PyPI `highspy`), --threads threads (default 1), and
  * OR-Tools CP-SAT (PyPI `ortools`), --threads workers, linearization_level 2,
and prints wall seconds, the value, the best bound and whether optimality was proven.

Each `--xcover BIN` adds an xcover binary (e.g. target/release/xcover and a build of the previous
commit), run as `BIN queens max FILE --format json --time-limit T
--threads K`, so the MIP solvers and the xcover binaries get the same limit and threads in
one run. A solver whose Python package is missing is skipped with a note on stderr (`pip
install highspy ortools`).

Instead of FILEs, `--sizes 50,100,200 --seeds 1,2,3` makes the boards with the first xcover
binary (`queens random N --seed S`, weights 1..99) into --dir.

Usage: python3 benches/weighted_mip.py [--time-limit 60] [--threads 1] [--solvers highs,cpsat]
           [--xcover BIN]... (FILE... | --sizes N,... --seeds S,...)
"""
import json
import os
import subprocess
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


def solve_highs(n, w, limit, threads):
    import highspy
    import numpy as np
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", int(threads))
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


def solve_cpsat(n, w, limit, threads):
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
    s.parameters.num_workers = int(threads)
    s.parameters.linearization_level = 2
    s.parameters.max_time_in_seconds = float(limit)
    t = time.perf_counter()
    st = s.Solve(m)
    secs = time.perf_counter() - t
    # No solution found (UNKNOWN): no value (CP-SAT then reports 0).
    found = st in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    return secs, s.ObjectiveValue() if found else float("nan"), s.BestObjectiveBound(), s.StatusName(st)


def solve_xcover(binary, path, limit, threads):
    t = time.perf_counter()
    out = subprocess.run(
        [binary, "queens", "max", path, "--format", "json", "--time-limit", str(limit),
         "--threads", str(threads)],
        check=True, capture_output=True, text=True).stdout
    secs = time.perf_counter() - t
    # The first layout record of the board (its fields: docs/formats.md).
    rec = json.loads(out.splitlines()[0])
    nan = float("nan")
    value = nan if rec.get("score") is None else rec["score"]
    bound = nan if rec.get("board_bound") is None else rec["board_bound"]
    return secs, value, bound, rec["board_status"]


def available(name):
    module = {"highs": "highspy", "cpsat": "ortools"}.get(name)
    if module is None:
        sys.exit(f"error: unknown solver {name!r} (highs, cpsat)")
    try:
        __import__(module)
        return True
    except ImportError:
        print(f"note: {name} skipped ({module} is not installed)", file=sys.stderr)
        return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--time-limit", "--time", dest="time", type=float, default=60)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--solvers", default="highs,cpsat")
    ap.add_argument("--xcover", action="append", default=[])
    ap.add_argument("--sizes", default="")
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--dir", default="target/weighted-mip")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = list(a.files)
    if a.sizes:
        if not a.xcover:
            sys.exit("--sizes needs an --xcover binary to make the boards")
        os.makedirs(a.dir, exist_ok=True)
        for n in a.sizes.split(","):
            for seed in a.seeds.split(","):
                path = os.path.join(a.dir, f"n{n}-s{seed}.txt")
                subprocess.run([a.xcover[0], "queens", "random", n, "--seed", seed, "-o", path],
                               check=True)
                files.append(path)
    solvers = [x for x in a.solvers.split(",") if x and available(x)]
    print(f"time limit {a.time:g} s, {a.threads} thread(s)")
    print(f"{'board':<16} {'solver':<28} {'status':<12} {'value':>8} {'bound':>10} {'seconds':>9}")
    for f in files:
        n, w = read_board(f)
        runs = [(name, lambda name=name: {"highs": solve_highs, "cpsat": solve_cpsat}[name](
            n, w, a.time, a.threads)) for name in solvers]
        runs += [(b, lambda b=b: solve_xcover(b, f, a.time, a.threads)) for b in a.xcover]
        for name, run in runs:
            secs, val, bound, status = run()
            label = os.path.basename(f)
            print(f"{label:<16} {name[-28:]:<28} {status:<12} {val:>8.0f} {bound:>10.1f} {secs:>9.2f}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
