#!/usr/bin/env python3
"""The suite's instances counted by two peers from PyPI, Ganak and Graphillion.

    python3 benches/suite/gen.py          # first: the instances, in target/suite/instances
    python3 benches/peers.py [--only SUBSTR] [--timeout S] [--peers ganak,graphillion]

- Ganak (`pip install pyganak`), a #SAT counter with component caching, counts a CNF
  encoding of each instance without multiplicities: one variable per option; for each primary
  item "exactly one of its options", for each secondary item "at most one colour group of its
  options" (options that give it the same colour form one group, an uncoloured option a group
  of its own). At-most-one is a ladder of auxiliary variables s_i <-> (s_{i-1} or x_i), each
  fixed by the options, so the models of the CNF are exactly the solutions.
- Graphillion (`pip install graphillion`), frontier-based ZDDs over a graph's edges, counts
  the instances that are perfect matchings of a graph: domino tilings (the grid graph) and
  the matchings of K_n.

Each count runs in a child process, killed after --timeout seconds (default
$PEERS_TIMEOUT, else 600; shown as `>T`), and is compared with benches/suite/counts.csv: a
mismatch is printed and the script exits 1. A peer that is not installed is skipped with a
message (exit 0). Times are wall-clock seconds of the count alone (building the formula or
the universe excluded), one thread (OMP_NUM_THREADS=1).
"""

import argparse
import csv
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
COUNTS = os.path.join(HERE, "suite", "counts.csv")
INSTANCES = os.path.join(ROOT, "target", "suite", "instances")


def read_dlx(path):
    """(primary, secondary, options, multiplicities) of a DLX file; an option is a list of
    (item, colour or None)."""
    primary, secondary, options = [], [], []
    mult = False
    head = None
    for line in open(path):
        t = line.split()
        if not t or t[0].startswith("|"):
            continue
        if head is None:
            head = t
            side = primary
            for tok in t:
                if tok == "|":
                    side = secondary
                    continue
                if tok.startswith("|"):
                    side = secondary
                    tok = tok[1:]
                if "|" in tok:
                    mult = True
                    tok = tok.split("|")[1]
                side.append(tok)
            continue
        opt = []
        for tok in t:
            if tok.startswith("|"):
                break  # a cost
            name, _, colour = tok.partition(":")
            opt.append((name, colour or None))
        options.append(opt)
    prim = set(primary)
    options = [o for o in options if any(n in prim for n, _ in o)]
    return primary, secondary, options, mult


class Cnf:
    def __init__(self, nvars):
        self.nvars = nvars
        self.clauses = []

    def new(self):
        self.nvars += 1
        return self.nvars

    def at_most_one(self, xs):
        """A ladder: s_i <-> s_{i-1} or x_i, and not (s_{i-1} and x_i); returns s_last
        (true iff one of xs is), or None for an empty list."""
        if not xs:
            return None
        prev = xs[0]
        for x in xs[1:]:
            s = self.new()
            self.clauses += [[-x, s], [-prev, s], [-s, prev, x], [-prev, -x]]
            prev = s
        return prev

    def any_of(self, xs):
        """A variable y <-> or(xs)."""
        if len(xs) == 1:
            return xs[0]
        y = self.new()
        self.clauses.append([-y] + xs)
        self.clauses += [[-x, y] for x in xs]
        return y


def exact_cover_cnf(path):
    primary, secondary, options, mult = read_dlx(path)
    if mult:
        return None
    cnf = Cnf(len(options))
    by_item = {}
    for k, o in enumerate(options):
        for name, colour in o:
            by_item.setdefault(name, []).append((k + 1, colour))
    for item in primary:
        xs = [v for v, _ in by_item.get(item, [])]
        if not xs:
            v = cnf.new()  # no option covers it: no solution
            cnf.clauses += [[v], [-v]]
            continue
        cnf.clauses.append([cnf.at_most_one(xs)])
    for item in secondary:
        groups = {}
        singles = []
        for v, colour in by_item.get(item, []):
            if colour is None:
                singles.append(v)
            else:
                groups.setdefault(colour, []).append(v)
        ys = singles + [cnf.any_of(vs) for vs in groups.values()]
        cnf.at_most_one(ys)
    return cnf


def ganak_count(path):
    from pyganak import Counter

    cnf = exact_cover_cnf(path)
    c = Counter()
    for cl in cnf.clauses:
        c.add_clause(cl)
    # Variables that occur in no clause would double the count: pin them (none expected).
    used = {abs(lit) for cl in cnf.clauses for lit in cl}
    for v in range(1, cnf.nvars + 1):
        if v not in used:
            c.add_clause([-v])
    t = time.perf_counter()
    n = c.count()
    return n, time.perf_counter() - t


def graph_of(name):
    """The graph whose perfect matchings are the instance's solutions, or None."""
    m = re.fullmatch(r"dominoes(\d+)x(\d+)", name)
    if m:
        r, c = int(m.group(1)), int(m.group(2))
        edges = []
        for i in range(r):
            for j in range(c):
                v = i * c + j + 1
                if j + 1 < c:
                    edges.append((v, v + 1))
                if i + 1 < r:
                    edges.append((v, v + c))
        return edges
    m = re.fullmatch(r"matchings(\d+)", name)
    if m:
        n = int(m.group(1))
        return [(a, b) for a in range(1, n + 1) for b in range(a + 1, n + 1)]
    return None


def graphillion_count(name):
    from graphillion import GraphSet

    GraphSet.set_universe(graph_of(name))
    t = time.perf_counter()
    n = GraphSet.perfect_matchings().len()
    return n, time.perf_counter() - t


def child(peer, name):
    path = os.path.join(INSTANCES, name + ".dlx")
    n, secs = ganak_count(path) if peer == "ganak" else graphillion_count(name)
    # The last line: Ganak may print its own lines ("c o ...") on stdout before it.
    print(f"count {n} {secs:.3f}")


def installed(module):
    try:
        __import__(module)
        return True
    except ImportError:
        return False


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", default="")
    p.add_argument("--timeout", type=float, default=float(os.environ.get("PEERS_TIMEOUT", 600)))
    p.add_argument("--peers", default="ganak,graphillion")
    p.add_argument("--child", nargs=2, metavar=("PEER", "NAME"), help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.child:
        child(*a.child)
        return 0
    rows = list(csv.DictReader(open(COUNTS)))
    peers = []
    for peer, module in (("ganak", "pyganak"), ("graphillion", "graphillion")):
        if peer not in a.peers.split(","):
            continue
        if installed(module):
            peers.append(peer)
        else:
            print(f"peers.py: {peer} skipped: python module {module} not installed (pip install {module})")
    if not peers:
        return 0
    if not os.path.isdir(INSTANCES):
        print(f"peers.py: no instances in {INSTANCES}: run python3 benches/suite/gen.py first", file=sys.stderr)
        return 1
    env = dict(os.environ, OMP_NUM_THREADS="1")
    bad = 0
    print(f"{'instance':<18} {'peer':<12} {'count':>34} {'seconds':>9}  check")
    for row in rows:
        name = row["instance"]
        if a.only not in name:
            continue
        path = os.path.join(INSTANCES, name + ".dlx")
        if not os.path.exists(path):
            print(f"{name:<18} skipped: no {path} (run benches/suite/gen.py)")
            continue
        for peer in peers:
            if peer == "graphillion" and graph_of(name) is None:
                continue
            if peer == "ganak" and read_dlx(path)[3]:
                print(f"{name:<18} {peer:<12} {'-':>34} {'-':>9}  skipped: multiplicities")
                continue
            try:
                r = subprocess.run(
                    [sys.executable, os.path.abspath(__file__), "--child", peer, name],
                    capture_output=True, text=True, timeout=a.timeout, env=env,
                )
            except subprocess.TimeoutExpired:
                print(f"{name:<18} {peer:<12} {'-':>34} {'>' + format(a.timeout, 'g'):>9}  not finished")
                continue
            last = [ln for ln in r.stdout.splitlines() if ln.startswith("count ")]
            if r.returncode != 0 or not last:
                print(f"{name:<18} {peer:<12} failed (exit {r.returncode}): {r.stderr.strip()[-200:]}")
                bad += 1
                continue
            _, n, secs = last[-1].split()
            ok = int(n) == int(row["count"])
            print(f"{name:<18} {peer:<12} {n:>34} {secs:>9}  {'ok' if ok else 'MISMATCH, counts.csv: ' + row['count']}", flush=True)
            bad += not ok
    if bad:
        print(f"peers.py: {bad} count(s) wrong or failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
