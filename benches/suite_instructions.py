#!/usr/bin/env python3
"""The suite's ratio table in instructions rather than seconds.

    python3 benches/suite_instructions.py [--knuth DIR] [--timeout S] [--max-seconds S]
                                          [--only NAME] [--jobs N] [--xcover BINARY]

Each instance of the suite (benches/suite/counts.csv, written by benches/suite/gen.py into
target/suite/instances/) and of the benchmark set (target/knuth/instances/, written by
benches/knuth.sh) is counted by xcover's default, `--knuth`, `--memo off` and `--memo on`
(one thread), and by SSXCC and DLX2 when DIR holds them, each under valgrind's callgrind:
its instructions (Ir), which a loaded machine does not disturb (a machine whose speed moves by
2x within the hour makes wall-clock ratios of a few percent unreadable; `benches/knuth.sh`
gives those). A solver is first run natively with a timeout (default 10 s): one that does not
finish within it is `>T` and is not run under callgrind. Instances whose default takes over
`--max-seconds` natively (default 1.5) are left out (under callgrind a second is about a
minute), and another solver that takes over it natively is not run under callgrind either: its
cell is `xRw`, R times the default's native time, and its instructions are taken as R times
the default's (a wall-clock ratio, used only for solvers far slower than the default). Every finished count is checked against counts.csv (the benchmark set: against the
default's); a wrong count is printed and the script exits 1.

What instructions do not see: time per instruction (cache misses, mispredicted branches),
the kernel (page faults, process start) and the clock. The portfolio's turns are in time, and
under valgrind every search is slowed alike, so where its rounds grow from measured times it
decides about as natively; but its fixed times (the opening round's millisecond, the first
slice on threads) hold fifty times less work, so a memoised count of a few milliseconds, which
natively ends within the opening round, is read wrong here (lozenge tilings of the hexagon:
21 times `--memo on`'s instructions under valgrind, 1.2–1.4 times its time natively). Read the
plain counts here, and the memoised counts in benches/knuth.sh.

The table: per instance, the instructions of each solver, the default / the best of
`--knuth`, `--memo off`, `--memo on`, and the default / SSXCC; the medians over the
instances where both finished, for all instances and for the tune, aside and set kinds.
"""

import argparse
import csv
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

SOLVERS = {
    "default": [],
    "knuth": ["--knuth"],
    "memo-off": ["--memo", "off"],
    "memo-on": ["--memo", "on"],
}


def command(solver, args, file):
    """The command line of `solver` on `file`, and the file for its stdin (Knuth's programs)."""
    if solver in SOLVERS:
        return [args.xcover, "solve", "--count", "--stats", "-t", "1", *SOLVERS[solver], file], None
    return [os.path.join(args.knuth, solver)], file


def count_of(stderr, stdout):
    """The count a run reported: Knuth's "Altogether N solutions" (xcover writes it too with
    --stats), else the last line of xcover's output."""
    for line in stderr.splitlines():
        if line.startswith("Altogether"):
            return line.split()[1]
    lines = stdout.strip().splitlines()
    return lines[-1] if lines else "?"


def native(solver, args, file):
    """Seconds and count natively, or None when the run did not finish within the timeout."""
    cmd, stdin = command(solver, args, file)
    started = time.perf_counter()
    try:
        with open(stdin or os.devnull, "rb") as inp:
            out = subprocess.run(cmd, stdin=inp, capture_output=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return None
    if out.returncode != 0:
        return (time.perf_counter() - started, "failed")
    return (time.perf_counter() - started, count_of(out.stderr.decode(), out.stdout.decode()))


def instructions(solver, args, file):
    """The instructions (Ir) of a run under callgrind, and its count."""
    cmd, stdin = command(solver, args, file)
    with tempfile.TemporaryDirectory() as work:
        cg = os.path.join(work, "cg.out")
        with open(stdin or os.devnull, "rb") as inp:
            out = subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}", *cmd],
                stdin=inp,
                capture_output=True,
            )
        ir = None
        with open(cg) as f:
            for line in f:
                if line.startswith(("summary:", "totals:")):
                    ir = int(line.split()[1])
                    break
    # valgrind's own lines start with ==pid==.
    stderr = "\n".join(l for l in out.stderr.decode().splitlines() if not l.startswith("=="))
    return ir, count_of(stderr, out.stdout.decode())


def instances(args):
    """(name, file, expected count or None, kind) of the benchmark set and the suite."""
    found = []
    knuth_dir = os.path.join(ROOT, "target/knuth/instances")
    if os.path.isdir(knuth_dir):
        for f in sorted(os.listdir(knuth_dir)):
            if f.endswith(".dlx"):
                found.append((f[:-4], os.path.join(knuth_dir, f), None, "set"))
    with open(os.path.join(HERE, "suite/counts.csv")) as f:
        for row in csv.DictReader(f):
            path = os.path.join(ROOT, "target/suite/instances", row["instance"] + ".dlx")
            if os.path.exists(path):
                found.append((row["instance"], path, row["count"], row["set"]))
    return [i for i in found if args.only is None or args.only in i[0]]


def has_multiplicities(file):
    """Whether the item line of a DLX file has `u:v|name` items (DLX3's; SSXCC and DLX2 do
    not take them, and are not run)."""
    with open(file) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("|"):
                return re.search(r"[0-9]\|\S", line) is not None
    return False


def measure(inst, args, peers):
    name, file, expected, kind = inst
    if has_multiplicities(file):
        peers = []
    first = native("default", args, file)
    if first is None or first[0] > args.max_seconds:
        return name, kind, None, f"left out: the default takes over {args.max_seconds} s"
    row = {}
    counts = {}
    for solver in [*SOLVERS, *peers]:
        ran = first if solver == "default" else native(solver, args, file)
        if ran is None:
            row[solver] = None
            continue
        if ran[0] > args.max_seconds:
            # Too long for valgrind: its instructions are bounded by the default's times the
            # ratio of the native times (a wall-clock ratio, marked `w` in the table).
            row[solver] = ("w", ran[0] / first[0])
            counts[solver] = ran[1]
            continue
        ir, count = instructions(solver, args, file)
        row[solver] = ir
        counts[solver] = count
    want = expected or counts.get("default")
    wrong = [f"{s} counts {c}, expected {want}" for s, c in counts.items() if c != want]
    return name, kind, row, "; ".join(wrong)


def ratio(a, b):
    return None if a is None or b is None else a / b


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--knuth", default=os.environ.get("KNUTH_BIN", ""), help="Knuth's programs")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--max-seconds", type=float, default=1.5)
    parser.add_argument("--only")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--xcover", default=os.path.join(ROOT, "target/release/xcover"))
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("suite_instructions.py: skipped: valgrind not found")
        return 0
    peers = [
        p for p in ("ssxcc", "dlx2") if args.knuth and os.access(os.path.join(args.knuth, p), os.X_OK)
    ]
    todo = instances(args)
    if not todo:
        print("suite_instructions.py: no instances (run python3 benches/suite/gen.py first)")
        return 0
    print(f"xcover: {args.xcover}; peers: {', '.join(peers) or 'none'}; instructions (Ir, millions)")
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda i: measure(i, args, peers), todo))
    heads = [*SOLVERS, *peers]
    print(f"{'instance':18} {'set':6} " + " ".join(f"{h:>10}" for h in heads) + f" {'best':>9} {'÷best':>6} {'÷SSXCC':>7}")
    bad = 0
    by_kind = {}
    for name, kind, row, note in results:
        if row is None:
            print(f"{name:18} {kind:6} {note}")
            continue
        def cell(v):
            if v is None:
                return f"{'>T':>10}"
            if isinstance(v, tuple):
                return f"{'x' + format(v[1], '.1f') + 'w':>10}"
            return f"{v / 1e6:10.1f}"

        def as_ir(v):
            # A run too long for valgrind, in the default's instructions times the native
            # ratio.
            return row["default"] * v[1] if isinstance(v, tuple) else v

        cells = " ".join(cell(row.get(h)) if h in row else f"{'-':>10}" for h in heads)
        options = {s: as_ir(row[s]) for s in ("knuth", "memo-off", "memo-on") if row[s] is not None}
        best = min(options, key=options.get) if options else None
        r_best = ratio(row["default"], options.get(best))
        r_ss = ratio(row["default"], as_ir(row.get("ssxcc")))
        fmt = lambda r: f"{r:.2f}" if r is not None else "-"
        print(f"{name:18} {kind:6} {cells} {best or '-':>9} {fmt(r_best):>6} {fmt(r_ss):>7}")
        if note:
            print(f"  {name}: {note}", file=sys.stderr)
            bad += 1
        for k in ("all", kind):
            by_kind.setdefault(k, ([], []))
            if r_best is not None:
                by_kind[k][0].append(r_best)
            if r_ss is not None:
                by_kind[k][1].append(r_ss)
    for k, (best, ss) in by_kind.items():
        med = lambda v: f"{statistics.median(v):.2f} over {len(v)}" if v else "-"
        print(f"median ({k}): default ÷ best {med(best)}; default ÷ SSXCC {med(ss)}")
    if bad:
        print(f"suite_instructions.py: {bad} instance(s) with a wrong count", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
