#!/usr/bin/env python3
"""The trust sweep (issue 39): try xcover as a hostile user would.

Every expected answer comes from a brute force written here (never from xcover).
Categories: random XCC instances (solve), queens counts and listings, weighted
queens (queens max), bad input with an existing -o target, and signals.

    python3 tests/sweep/sweep.py --quick                 # about a minute
    python3 tests/sweep/sweep.py --seed 7 --budget 900   # a longer run

Prints a table of tries per category with the counts of wrong answers, panics,
aborts, hangs, lost files and bad messages; exits 1 if any is non-zero, after
printing each failure's reproducer (a directory holding the input, and the
command line to run in it). Standard library only, Python 3.9+.
"""

import argparse
import csv
import io
import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HANG_TIMEOUT = 20.0
CATEGORIES = ["xcc", "queens", "weighted", "bad-input", "signals"]
COLUMNS = ["wrong", "panic", "abort", "hang", "lost", "msg"]
# Errors about the whole input, which name the file but no line; --lenient-messages accepts them.
WHOLE_FILE_ERRORS = ("empty input", "cannot infer n", "empty board", "must be square", "no shard record",
                     "missing shards")
OLD = b"old content: must survive a failed run\n"
CTRL = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]")


class Sweep:
    def __init__(self, xcover, workdir, seed):
        self.xcover = xcover
        self.workdir = workdir
        self.scratch = os.path.join(workdir, "scratch")
        self.faildir = os.path.join(workdir, "failures")
        os.makedirs(self.scratch, exist_ok=True)
        os.makedirs(self.faildir, exist_ok=True)
        self.rng = random.Random(seed)
        self.stats = {c: dict(tries=0, refused=0, **{k: 0 for k in COLUMNS}) for c in CATEGORIES}
        self.failures = []
        self.notes = []
        self.worst_signal_exit = 0.0
        self.cur_cat = None
        self.cur_cmds = []
        self.cur_fail = False
        self.lenient = False

    # ---------------------------------------------------------------- running
    def clean_scratch(self):
        shutil.rmtree(self.scratch, ignore_errors=True)
        os.makedirs(self.scratch)

    def write(self, name, data):
        if isinstance(data, str):
            data = data.encode()
        with open(os.path.join(self.scratch, name), "wb") as f:
            f.write(data)

    def read(self, name):
        with open(os.path.join(self.scratch, name), "rb") as f:
            return f.read()

    def run(self, args, timeout=HANG_TIMEOUT):
        """Runs xcover ARGS in the scratch directory; returns (rc, out, err) or None
        after recording a panic/abort/hang."""
        self.cur_cmds.append(args)
        t0 = time.monotonic()
        try:
            p = subprocess.run([self.xcover] + args, cwd=self.scratch, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        except subprocess.TimeoutExpired:
            self.fail("hang", "no exit within %.0f s" % timeout)
            return None
        err = p.stderr
        if p.returncode == 101 or b"panicked" in err or b"RUST_BACKTRACE" in err:
            self.fail("panic", "exit %d: %s" % (p.returncode, short(err)))
            return None
        if p.returncode < 0:
            self.fail("abort", "killed by signal %d: %s" % (-p.returncode, short(err)))
            return None
        return p.returncode, p.stdout, err

    def ok(self, args, timeout=HANG_TIMEOUT):
        """Runs a command that must succeed; returns (out, err) or None."""
        r = self.run(args, timeout)
        if r is None:
            return None
        rc, out, err = r
        if rc != 0:
            self.fail("wrong", "exit %d: %s" % (rc, short(err)))
            return None
        return out, err

    def refusal_ok(self, err):
        lines = [l for l in err.decode("utf-8", "replace").splitlines() if not l.startswith("warning:")]
        return len(lines) == 1 and lines[0].startswith("error: ")

    def may_refuse(self, args):
        """Runs a combination the tool may refuse: a clean refusal (exit 2, one
        `error:` line) is a pass and gives None; success gives (out, err)."""
        r = self.run(args)
        if r is None:
            return None
        rc, out, err = r
        if rc == 2 and self.refusal_ok(err):
            self.stats[self.cur_cat]["refused"] += 1
            return None
        if rc != 0:
            self.fail("wrong", "exit %d (not a clean refusal): %s" % (rc, short(err)))
            return None
        return out, err

    # -------------------------------------------------------------- bookkeeping
    def begin(self, cat):
        self.cur_cat = cat
        self.cur_cmds = []
        self.cur_fail = False
        self.stats[cat]["tries"] += 1
        self.clean_scratch()

    def fail(self, kind, message):
        st = self.stats[self.cur_cat]
        st[kind] += 1
        self.cur_fail = True
        n = len(self.failures) + 1
        d = os.path.join(self.faildir, "%03d-%s-%s" % (n, self.cur_cat, kind))
        shutil.copytree(self.scratch, d)
        # an argument "# ..." is a shell note ("# < in.dlx" is a redirection), not quoted
        cmds = [" ".join(["\"$XCOVER\""] + [a[2:] if a.startswith("# <") else a if a.startswith("# ") else shlex.quote(a)
                                          for a in c]) for c in self.cur_cmds]
        with open(os.path.join(d, "commands.sh"), "w") as f:
            f.write("# run in this directory: XCOVER=%s sh commands.sh\n" % self.xcover)
            f.write("# %s: %s\n" % (kind, message.replace("\n", " ")))
            f.write("\n".join(cmds) + "\n")
        self.failures.append((self.cur_cat, kind, message, d, cmds[-1] if cmds else ""))

    def check(self, cond, message, kind="wrong"):
        if not cond:
            self.fail(kind, message)
        return cond


def short(b, n=300):
    s = b.decode("utf-8", "replace") if isinstance(b, bytes) else str(b)
    s = s.strip().replace("\n", " | ")
    return s if len(s) <= n else s[:n] + "..."


# =========================================================== 1. random XCC
def gen_xcc(rng):
    """A random XCC instance: returns (text, problem), problem a dict for the
    brute force. Options are keyed by their 1-based input line."""
    np_ = rng.randint(1, 7)
    ns = rng.randint(0, 4)
    prim = ["p%d" % i for i in range(np_)]
    if rng.random() < 0.15:
        prim = [p.replace("p", rng.choice(["é", "π", "Ω", "P"])) for p in prim]
    sec = ["s%d" % i for i in range(ns)]
    mult = {}
    use_mult = rng.random() < 0.25
    use_cost = rng.random() < 0.6
    head = []
    for p in prim:
        if use_mult and rng.random() < 0.5:
            u = rng.randint(0, 2)
            v = rng.randint(max(u, 1), 3)
            if u == v and rng.random() < 0.5:
                head.append("%d|%s" % (v, p))
            else:
                head.append("%d:%d|%s" % (u, v, p))
            mult[p] = (u, v)
        else:
            head.append(p)
            mult[p] = (1, 1)
    lines = []
    if rng.random() < 0.3:
        lines.append("| random XCC instance")
    lines.append(" ".join(head) + ((" | " + " ".join(sec)) if sec else ""))
    options = []  # (line, prims, secs{name: colour or None}, cost, text)
    m = rng.randint(1, 14)
    for _ in range(m):
        if rng.random() < 0.15 and lines[-1] != "":
            lines.append(rng.choice(["", "| a comment", "   | indented comment"]))
        k = rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 4]) if rng.random() < 0.95 else 0
        ps = rng.sample(prim, min(max(k, 1 if rng.random() < 0.97 else 0), np_))
        ss = rng.sample(sec, rng.randint(0, ns)) if ns else []
        sc = {s: (rng.choice("AB") if rng.random() < 0.5 else None) for s in ss}
        toks = ps + [s if c is None else "%s:%s" % (s, c) for s, c in sc.items()]
        rng.shuffle(toks)
        cost = 0
        if use_cost:
            for _ in range(rng.choice([0, 1, 1, 1, 2])):
                c = rng.randint(0, 9)
                cost += c
                toks.append("|%d" % c)
        text = " ".join(toks)
        if not toks:
            continue
        lines.append(text)
        if ps:  # an option with no primary item is ignored (a warning)
            options.append((len(lines), ps, sc, cost, text))
    return "\n".join(lines) + "\n", dict(prim=prim, sec=sec, mult=mult, options=options,
                                          has_mult=any(v != (1, 1) for v in mult.values()),
                                          has_cost=use_cost)


def brute_xcc(pb):
    """Every subset of options that is a solution: a dict frozenset(lines) -> cost."""
    opts = pb["options"]
    mult = pb["mult"]
    sols = {}
    cnt = {p: 0 for p in pb["prim"]}
    suse = {s: [] for s in pb["sec"]}

    def sec_ok(s):
        u = suse[s]
        if len(u) <= 1:
            return True
        return u[0] is not None and all(c == u[0] for c in u)

    def rec(i, chosen, cost):
        if i == len(opts):
            if all(mult[p][0] <= cnt[p] <= mult[p][1] for p in cnt):
                sols[frozenset(chosen)] = cost
            return
        rec(i + 1, chosen, cost)
        line, ps, sc, c, _ = opts[i]
        if all(cnt[p] < mult[p][1] for p in ps):
            for p in ps:
                cnt[p] += 1
            for s, col in sc.items():
                suse[s].append(col)
            if all(sec_ok(s) for s in sc):
                chosen.append(line)
                rec(i + 1, chosen, cost + c)
                chosen.pop()
            for s in sc:
                suse[s].pop()
            for p in ps:
                cnt[p] -= 1

    rec(0, [], 0)
    return sols


def is_solution(pb, lineset):
    """Independent check of one listed solution."""
    byline = {o[0]: o for o in pb["options"]}
    if not all(l in byline for l in lineset):
        return False
    cnt = {p: 0 for p in pb["prim"]}
    uses = {s: [] for s in pb["sec"]}
    for l in lineset:
        _, ps, sc, _, _ = byline[l]
        for p in ps:
            cnt[p] += 1
        for s, c in sc.items():
            uses[s].append(c)
    for p, (u, v) in pb["mult"].items():
        if not u <= cnt[p] <= v:
            return False
    for u in uses.values():
        if len(u) > 1 and (u[0] is None or any(c != u[0] for c in u)):
            return False
    return True


def parse_csv_solutions(out, with_cost=False):
    """{solution number: (lines list, cost)} from solve's CSV."""
    rows = list(csv.DictReader(io.StringIO(out.decode())))
    sols = {}
    for r in rows:
        k = int(r["solution"])
        sols.setdefault(k, ([], int(r["cost"]) if with_cost and r["cost"] != "" else None))
        if r["line"] != "":  # the empty solution is one row without an option
            sols[k][0].append(int(r["line"]))
    return sols


def try_xcc(sw):
    rng = sw.rng
    sw.begin("xcc")
    text, pb = gen_xcc(rng)
    data = text.encode()
    if rng.random() < 0.15:
        data = data.replace(b"\n", b"\r\n")
    if rng.random() < 0.1:
        data = b"\xef\xbb\xbf" + data
    sw.write("in.dlx", data)
    sols = brute_xcc(pb)
    total = len(sols)
    mult = pb["has_mult"]
    # counts, every way
    variants = [[], ["--memo", "on"], ["--memo", "off"], ["--memo", "auto"], ["--knuth"],
                ["-t", "1"], ["-t", "2"], ["--memo", "on", "--memo-mem", "4K"],
                ["--memo-mem", "4K", "-t", "2"], ["--format", "json"], ["--format", "csv"]]
    for v in variants + [["--preprocess"], ["--preprocess", "-t", "2"]]:
        args = ["solve", "--count", "in.dlx"] + v
        r = sw.may_refuse(args) if (mult and "--preprocess" in v) else sw.ok(args)
        if r is None:
            continue
        out = r[0].decode().strip()
        if "json" in v:
            got = json.loads(out)["solutions"]
        elif "csv" in v:
            got = int(list(csv.DictReader(io.StringIO(out)))[0]["solutions"])
        else:
            got = int(out)
        if not sw.check(got == total, "count %s: got %s, brute force %d" % (" ".join(v), got, total)):
            return
    # the listing, CSV (the empty solution is one row without an option) and JSON
    for v in [["-t", "1"], ["-t", "2"], ["--preprocess"]]:
        use_o = rng.random() < 0.5
        if use_o:
            sw.write("out.csv", OLD)
        args = ["solve", "--format", "csv", "in.dlx"] + v + (["-o", "out.csv"] if use_o else [])
        r = sw.may_refuse(args) if (mult and "--preprocess" in v) else sw.ok(args)
        if r is None:
            continue
        out = sw.read("out.csv") if use_o else r[0]
        if use_o and not sw.check(stray_tmp(sw.scratch) == [], "temporary file left: %s" % stray_tmp(sw.scratch), "lost"):
            return
        listed = parse_csv_solutions(out)
        sets = [frozenset(l) for l, _ in listed.values()]
        want = set(sols)
        if not sw.check(len(sets) == len(set(sets)), "listing %s repeats a solution" % v):
            return
        if not sw.check(all(is_solution(pb, s) for s in sets), "listing %s has a non-solution" % v):
            return
        if not sw.check(set(sets) == want, "listing %s: %d solutions, brute force %d" % (v, len(sets), len(want))):
            return
    r = sw.ok(["solve", "--format", "json", "in.dlx"])
    if r:
        recs = [json.loads(l) for l in r[0].decode().splitlines() if l.strip()]
        sets = [frozenset(x["lines"]) for x in recs if x.get("record") == "solution"]
        if not sw.check(len(sets) == len(set(sets)) and set(sets) == set(sols),
                        "json listing: %d solutions, brute force %d" % (len(sets), total)):
            return
    # the text listing: each solution's option texts (as multisets)
    r = sw.ok(["solve", "in.dlx"])
    if r:
        bytext = {o[0]: " ".join(t for t in o[4].split() if not t.startswith("|")) for o in pb["options"]}  # costs are not shown
        want = sorted(tuple(sorted(bytext[l] for l in s_)) for s_ in sols)
        got, cur = [], None
        for line in r[0].decode().splitlines():
            if re.fullmatch(r"\d+:", line):
                cur = []
                got.append(cur)
            elif line.startswith(" ") and cur is not None:
                cur.append(line[1:])
        got = sorted(tuple(sorted(g)) for g in got)
        if not sw.check(got == want, "text listing: %d solutions, brute force %d (as option texts)" % (len(got), len(want))):
            return
    # standard input
    sw.cur_cmds.append(["solve", "--count", "-", "# < in.dlx"])
    p = subprocess.run([sw.xcover, "solve", "--count", "-"], input=data, cwd=sw.scratch,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=HANG_TIMEOUT)
    if not sw.check(p.returncode == 0 and p.stdout.strip() == str(total).encode(),
                    "solve --count - (stdin): exit %d, %s, want %d" % (p.returncode, short(p.stdout), total)):
        return
    # --limit K
    k = rng.randint(1, total + 2)
    r = sw.ok(["solve", "--format", "csv", "--limit", str(k), "in.dlx"])
    if r:
        listed = parse_csv_solutions(r[0])
        sets = [frozenset(l) for l, _ in listed.values()]
        nonempty = sum(1 for s in sols if s)
        want_n = min(k, total)
        ok = (len(sets) == len(set(sets)) and all(s in sols for s in sets)
              and want_n - (total - nonempty) <= len(sets) <= want_n)
        if not sw.check(ok, "--limit %d: %d listed, %d distinct valid, want %d" % (k, len(sets), sum(1 for s in set(sets) if s in sols), want_n)):
            return
    # optimisation
    costs = sorted(sols.values())
    for sense in (["--minimize", "--maximize"] if pb["has_cost"] or rng.random() < 0.3 else []):
        kk = rng.randint(1, 4)
        order = costs if sense == "--minimize" else costs[::-1]
        for v in [[], ["--top", str(kk)], ["-t", "2"], ["--top", str(kk), "-t", "2"], ["--format", "json"]]:
            args = ["solve", sense, "in.dlx"] + (["--format", "csv"] if "json" not in v else []) + v
            r = sw.may_refuse(args) if mult else sw.ok(args)
            if r is None:
                continue
            out, err = r
            if "json" in v:
                recs = [json.loads(l) for l in out.decode().splitlines() if l.strip()]
                opt = [x for x in recs if x["record"] == "optimum"]
                solr = [x for x in recs if x["record"] == "solution"]
                if not total:
                    ok = opt and opt[0]["status"] == "infeasible" and not solr
                else:
                    ok = (opt and opt[0]["status"] == "optimal" and opt[0]["cost"] == order[0]
                          and len(solr) == 1 and solr[0]["cost"] == order[0]
                          and sols.get(frozenset(solr[0]["lines"])) == order[0])
                if not sw.check(ok, "%s json: brute force %s, got %s" % (sense, order[:1] or "infeasible", short(out))):
                    return
                continue
            listed = parse_csv_solutions(out, with_cost=True)
            want = order[:kk] if "--top" in v else order[:1]
            got = [listed[j][1] for j in sorted(listed)]
            sets = [frozenset(l) for l, _ in listed.values()]
            valid = all(s in sols and sols[s] == c for s, (l, c) in zip(sets, listed.values()))
            got_ok = got == want
            if not sw.check(valid and got_ok and len(set(sets)) == len(sets),
                            "%s %s: costs %s, brute force %s (valid=%s)" % (sense, " ".join(v), got, want, valid)):
                return
            if not total and not sw.check(b"infeasible" in err, "%s: no solution but stderr %s" % (sense, short(err))):
                return
    # shards and merge
    m = rng.randint(2, 5)
    kinds = [["--count"]] + ([[rng.choice(["--minimize", "--maximize"])]] if pb["has_cost"] else [])
    for kind in kinds:
        files = []
        for i in range(1, m + 1):
            fmt = rng.choice(["json", "csv", "text"])
            name = "shard-%s-%d.%s" % (kind[0][2:], i, fmt)
            args = ["solve", "in.dlx", "--shard", "%d/%d" % (i, m), "--format", fmt, "-o", name] + kind
            if rng.random() < 0.3:
                args += ["-t", "2"]
            r = sw.may_refuse(args) if mult else sw.ok(args)
            if r is None:
                files = None
                break
            files.append(name)
        if not files:
            continue
        r = sw.ok(["merge"] + files)
        if r is None:
            return
        out = r[0].decode().strip()
        if kind == ["--count"]:
            ok = out == str(total)
            want = total
        elif not total:
            ok = out == "infeasible"
            want = "infeasible"
        else:
            want = min(costs) if kind == ["--minimize"] else max(costs)
            ok = out == str(want)
        if not sw.check(ok, "merge of %d shards %s: got %r, brute force %s" % (m, kind[0], out, want)):
            return
    # refusals that must be clean
    r = sw.run(["solve", "--count", "--memo", "on", "--shard", "1/2", "in.dlx"])
    if r is not None:
        sw.check(r[0] == 2 and sw.refusal_ok(r[2]), "--memo on --shard: exit %d, %s" % (r[0], short(r[2])))


def stray_tmp(d):
    return [f for f in os.listdir(d) if f.startswith(".xcover-")]


# =============================================================== 2. queens
def queens_solutions(n):
    sols = []
    q = []

    def rec(r, cols, d1, d2):
        if r == n:
            sols.append(tuple(q))
            return
        for c in range(n):
            if c not in cols and (r + c) not in d1 and (r - c) not in d2:
                q.append(c)
                rec(r + 1, cols | {c}, d1 | {r + c}, d2 | {r - c})
                q.pop()

    rec(0, frozenset(), frozenset(), frozenset())
    return sols


def images(q):
    n = len(q)
    inv = [0] * n
    for r, c in enumerate(q):
        inv[c] = r
    out = set()
    for x in (tuple(q), tuple(inv)):
        h = tuple(n - 1 - c for c in x)
        out |= {x, h, x[::-1], h[::-1]}
    return out


def valid_layout(q, n):
    if len(q) != n or sorted(q) != list(range(n)):
        return False
    return len({r + c for r, c in enumerate(q)}) == n and len({r - c for r, c in enumerate(q)}) == n


def reference_counts():
    """OEIS A000170 and A002562 (solutions, fundamental solutions) beyond the brute force's reach."""
    return {11: (2680, 341), 12: (14200, 1787)}


_QSOL = {}


def qsols(n):
    if n not in _QSOL:
        _QSOL[n] = queens_solutions(n)
    return _QSOL[n]


def try_queens(sw, n, ref):
    rng = sw.rng
    sw.begin("queens")
    if n <= 10:
        sols = qsols(n)
        total = len(sols)
        reps = {min(images(q)) for q in sols}
        uniq = len(reps)
    else:
        total, uniq = ref[n]
        sols = None
    for v in [[], ["--engine", "dlx"], ["--engine", "bits"], ["-t", "1"], ["-t", "2"],
              ["--engine", "dlx", "--symmetry", "none"], ["--engine", "dlx", "--symmetry", "mirror"]]:
        for unique in (False, True):
            args = ["queens", "count", str(n)] + v + (["--unique"] if unique else [])
            fmt = rng.choice(["text", "csv", "json"])
            args += ["--format", fmt]
            r = sw.ok(args)
            if r is None:
                return
            out = r[0].decode()
            if fmt == "text":
                got = int(out.strip())
                want = uniq if unique else total
                ok = got == want
            else:
                rec = json.loads(out) if fmt == "json" else list(csv.DictReader(io.StringIO(out)))[0]
                ok = int(rec["solutions"]) == total and (not unique or int(rec["unique"]) == uniq) and rec["status"] == "complete"
            if not sw.check(ok, "queens count %s: got %s, want %d/%d" % (" ".join(args[2:]), short(out), total, uniq)):
                return
    # shards + merge
    for unique in (False, True):
        m = rng.randint(2, 7)
        eng = rng.choice(["dlx", "bits"])
        files = []
        for i in range(1, m + 1):
            name = "q-%d.%s" % (i, rng.choice(["json", "csv", "txt"]))
            fmt = {"json": "json", "csv": "csv", "txt": "text"}[name.split(".")[1]]
            r = sw.ok(["queens", "count", str(n), "--engine", eng, "--shard", "%d/%d" % (i, m),
                       "--format", fmt, "-o", name] + (["--unique"] if unique else []))
            if r is None:
                return
            files.append(name)
        r = sw.ok(["merge"] + files)
        if r is None:
            return
        want = uniq if unique else total
        if not sw.check(r[0].decode().strip() == str(want), "merge of %d shards (%s, unique=%s): %s, want %d" % (m, eng, unique, short(r[0]), want)):
            return
    # listings
    for v in [[], ["--engine", "dlx"], ["-t", "2"], ["--order", "search"]]:
        r = sw.ok(["queens", "list", str(n), "--format", "csv"] + v)
        if r is None:
            return
        rows = list(csv.DictReader(io.StringIO(r[0].decode())))
        lays = [tuple(int(x["q%d" % i]) for i in range(n)) for x in rows]
        ok = (len(lays) == total and len(set(lays)) == total and all(valid_layout(q, n) for q in lays)
              and (sols is None or set(lays) == set(sols)))
        if "--order" not in v:
            ok = ok and lays == sorted(lays)
        if not sw.check(ok, "queens list %d %s: %d rows, want %d valid distinct" % (n, " ".join(v), len(lays), total)):
            return
    if sols is not None:
        r = sw.ok(["queens", "heatmap", str(n), "--format", "csv"])
        if r is None:
            return
        heat = {(int(x["rank"]), int(x["file"])): int(x["solutions"]) for x in csv.DictReader(io.StringIO(r[0].decode()))}
        want = {(a, b): sum(1 for q in sols if q[a] == b) for a in range(n) for b in range(n)}
        if not sw.check(heat == want, "queens heatmap %d: differs from the brute force" % n):
            return
        queens_dlx(sw, n, sols)
        r = sw.ok(["queens", "list", str(n), "--unique", "--format", "csv"])
        if r is None:
            return
        rows = list(csv.DictReader(io.StringIO(r[0].decode())))
        got = {tuple(int(x["q%d" % i]) for i in range(n)): int(x["class_size"]) for x in rows}
        ok = set(got) == reps and len(rows) == uniq and all(got[q] == len(images(q)) for q in got)
        sw.check(ok, "queens list %d --unique: %d classes, want %d (representatives, class sizes)" % (n, len(rows), uniq))


def queens_dlx(sw, n, sols):
    """solve on an n-queens DLX written here (rows and files primary, diagonals
    secondary): counts with a tiny memo (evictions), Knuth's tree, threads, shards."""
    rng = sw.rng
    order = list(range(2 * n))
    rng.shuffle(order)
    items = ["r%d" % i if i < n else "c%d" % (i - n) for i in order]
    diag = ["a%d" % d for d in range(2 * n - 1)] + ["b%d" % d for d in range(2 * n - 1)]
    lines = [" ".join(items) + " | " + " ".join(diag)]
    where = {}
    for r in range(n):
        for c in range(n):
            lines.append("r%d c%d a%d b%d" % (r, c, r + c, r - c + n - 1))
            where[len(lines)] = (r, c)
    sw.write("q.dlx", "\n".join(lines) + "\n")
    total = len(sols)
    for v in [["--memo", "on", "--memo-mem", "4K"], ["--memo", "on"], ["--memo", "off"], ["--knuth"],
              ["-t", "2"], ["--preprocess"], ["--memo-mem", "4K"]]:
        r = sw.ok(["solve", "--count", "q.dlx"] + v)
        if r is None:
            return
        if not sw.check(r[0].strip() == str(total).encode(), "solve --count %s on %d-queens: %s, want %d" % (" ".join(v), n, short(r[0]), total)):
            return
    m = rng.randint(2, 6)
    files = []
    for i in range(1, m + 1):
        name = "s%d.json" % i
        if sw.ok(["solve", "--count", "q.dlx", "--shard", "%d/%d" % (i, m), "--format", "json", "-o", name]) is None:
            return
        files.append(name)
    r = sw.ok(["merge"] + files)
    if r is None or not sw.check(r[0].strip() == str(total).encode(), "merge of %d solve shards on %d-queens: %s, want %d" % (m, n, short(r[0]), total)):
        return
    r = sw.ok(["solve", "--format", "csv", "q.dlx", "-t", "2"])
    if r is None:
        return
    got = set()
    for ls, _ in parse_csv_solutions(r[0]).values():
        q = [None] * n
        for l in ls:
            rr, cc = where[l]
            q[rr] = cc
        got.add(tuple(q))
    sw.check(got == set(sols), "solve listing of %d-queens: %d layouts, want %d" % (n, len(got), total))


# ============================================================= 3. weighted
def board_text(boards):
    out = ["%d" % len(boards)]
    for b in boards:
        out += [" ".join(str(x) for x in row) for row in b] + [""]
    return "\n".join(out) + "\n"


def gen_board(rng, n):
    kind = rng.random()
    if kind < 0.5:
        return [[rng.randint(1, 99) for _ in range(n)] for _ in range(n)]
    if kind < 0.65:
        return [[0] * n for _ in range(n)]
    if kind < 0.75:
        c = rng.randint(-5, 5)
        return [[c] * n for _ in range(n)]
    if kind < 0.85:
        return [[r * n + c + 1 for c in range(n)] for r in range(n)]
    if kind < 0.93:
        return [[rng.choice([0, 0, 0, 1]) for _ in range(n)] for _ in range(n)]
    big = 2 ** 62
    return [[rng.choice([-big, big, 0, -1, 1]) for _ in range(n)] for _ in range(n)]


def try_weighted(sw):
    rng = sw.rng
    sw.begin("weighted")
    n = rng.choice([1, 2, 3, 4, 5, 5, 6, 6, 7, 7, 8, 8])
    nb = rng.randint(1, 3)
    boards = [gen_board(rng, n) for _ in range(nb)]
    sw.write("b.txt", board_text(boards))
    sols = qsols(n)
    method = rng.choice(["auto", "enumerate", "assignment", "lagrangian", "maxima", "generic"])
    thr = rng.choice(["1", "2"])
    expect = []
    for b in boards:
        scored = sorted(((sum(b[r][q[r]] for r in range(n)), q) for q in sols), key=lambda x: (-x[0], x[1]))
        best = scored[0][0] if scored else None
        opt = [q for s, q in scored if s == best]
        expect.append((best, opt, [s for s, _ in scored]))
    base = ["queens", "max", "b.txt", "--method", method, "-t", thr]
    r = sw.ok(base)
    if r is None:
        return
    lines = r[0].decode().splitlines()
    want = [str(e[0]) if e[0] is not None else "none" for e in expect]
    if not sw.check(lines == want, "queens max text: %s, brute force %s" % (lines, want)):
        return
    for fmt in ["csv", "json"]:
        r = sw.ok(base + ["--format", fmt])
        if r is None:
            return
        txt = r[0].decode()
        recs = list(csv.DictReader(io.StringIO(txt))) if fmt == "csv" else [json.loads(l) for l in txt.splitlines() if l.strip()]
        if not sw.check(len(recs) == nb, "queens max %s: %d records for %d boards" % (fmt, len(recs), nb)):
            return
        for i, (rec, (best, opt, _)) in enumerate(zip(recs, expect)):
            if best is None:
                ok = rec["board_status"] == "infeasible" and rec["score"] in ("", None)
            else:
                q = tuple(int(rec["q%d" % k]) for k in range(n))
                sc = sum(boards[i][k][q[k]] for k in range(n)) if valid_layout(q, n) else None
                ok = (rec["board_status"] == "optimal" and int(rec["score"]) == best and sc == best
                      and int(rec["optimal_count"]) == len(opt))
                if ok and q != opt[0]:
                    sw.check(False, "board %d: layout %s is optimal but not the lexicographically smallest %s (docs promise it)" % (i + 1, q, opt[0]))
                    return
            if not sw.check(ok, "queens max %s board %d: %s; brute force best %s, %d optimal" % (fmt, i + 1, rec, best, len(opt))):
                return
    k = rng.randint(1, 5)
    r = sw.ok(base + ["--top", str(k)])
    if r is None:
        return
    lines = r[0].decode().splitlines()
    want = [" ".join(str(s) for s in e[2][:k]) if e[0] is not None else "none" for e in expect]
    if not sw.check(lines == want, "queens max --top %d: %s, brute force %s" % (k, lines, want)):
        return
    r = sw.ok(base + ["--all-optimal", "--format", "csv"])
    if r is None:
        return
    recs = list(csv.DictReader(io.StringIO(r[0].decode())))
    for i, (best, opt, _) in enumerate(expect):
        mine = [tuple(int(x["q%d" % k]) for k in range(n)) for x in recs if int(x["board"]) == i + 1 and x["score"] != ""]
        if not sw.check(best is None and not mine or mine == opt,
                        "--all-optimal board %d: %d layouts, brute force %d (in lexicographic order)" % (i + 1, len(mine), len(opt))):
            return
    # the first board as a CSV matrix (pandas-like header/index sometimes), and -n N
    rows = [[str(x) for x in row] for row in boards[0]]
    style = rng.choice(["plain", "index", "header", "both"])
    if style in ("index", "both"):
        rows = [[str(i)] + row for i, row in enumerate(rows)]
    if style in ("header", "both"):
        rows = [([""] if style == "both" else []) + [str(i) for i in range(n)]] + rows
    sw.write("b.csv", "\n".join(",".join(r_) for r_ in rows) + "\n")
    r = sw.ok(["queens", "max", "--weights", "b.csv", "--method", method])
    if r is None:
        return
    want = str(expect[0][0]) if expect[0][0] is not None else "none"
    if not sw.check(r[0].decode().strip() == want, "queens max --weights (CSV, %s): %s, brute force %s" % (style, short(r[0]), want)):
        return
    r = sw.ok(["queens", "max", "-n", str(n), "b.txt", "--method", method])
    if r is None:
        return
    want = [str(e[0]) if e[0] is not None else "none" for e in expect]
    if not sw.check(r[0].decode().splitlines() == want, "queens max -n %d: %s, brute force %s" % (n, short(r[0]), want)):
        return
    # shards of the first board (one board per shard input)
    if expect[0][0] is not None and method != "enumerate":
        sw.write("one.txt", board_text(boards[:1]))
        m = rng.randint(2, 4)
        files = []
        for i in range(1, m + 1):
            name = "w-%d.json" % i
            r = sw.may_refuse(["queens", "max", "one.txt", "--method", method, "--shard", "%d/%d" % (i, m), "--format", "json", "-o", name])
            if r is None:
                return
            files.append(name)
        r = sw.ok(["merge"] + files)
        if r is None:
            return
        sw.check(r[0].decode().strip() == str(expect[0][0]), "merge of %d queens max shards: %s, brute force %s" % (m, short(r[0]), expect[0][0]))


# ============================================================ 4. bad input
def mutate(rng, data):
    kind = rng.choice(["flip", "flip", "ctrl", "nul", "utf8", "esc", "truncate", "empty", "comments",
                       "huge", "bigline", "delete", "dup", "sym", "bom", "cr"])
    b = bytearray(data)
    pos = rng.randint(0, len(b)) if b else 0
    if kind == "flip" and b:
        for _ in range(rng.randint(1, 3)):
            b[rng.randrange(len(b))] = rng.randrange(256)
    elif kind == "ctrl":
        b[pos:pos] = bytes([rng.choice(list(range(1, 9)) + [11, 12, 14, 27, 31, 127])])
    elif kind == "nul":
        b[pos:pos] = b"\0"
    elif kind == "utf8":
        b[pos:pos] = rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe2\x82", b"\x80\x80"])
    elif kind == "esc":
        b[pos:pos] = rng.choice([b"\x1b[31m", b"\x1b]0;title\x07", b"\x1b[2J"])
    elif kind == "truncate":
        b = b[:pos]
    elif kind == "empty":
        b = bytearray(rng.choice([b"", b"\n", b"   \n\n", b"\xef\xbb\xbf"]))
    elif kind == "comments":
        b = bytearray(b"| only a comment\n  | another\n\n")
    elif kind == "huge":
        num = rng.choice([b"99999999999999999999999999", b"-99999999999999999999", b"18446744073709551616",
                          b"9223372036854775808", b"-9223372036854775809", b"1e9", b"0x10", b"4.5", b"+3"])
        m = list(re.finditer(rb"\d+", bytes(b)))
        if m:
            x = rng.choice(m)
            b[x.start():x.end()] = num
        else:
            b[pos:pos] = num
    elif kind == "bigline":
        size = rng.choice([3 << 20, (16 << 20) + 10])
        b[pos:pos] = rng.choice([b"x", b"a ", b"|"]) * (size // 2) + b"\n"
    elif kind == "delete" and b:
        e = min(len(b), pos + rng.randint(1, 20))
        del b[pos:e]
    elif kind == "dup":
        ls = bytes(b).split(b"\n")
        if ls:
            i = rng.randrange(len(ls))
            ls.insert(i, ls[i])
        b = bytearray(b"\n".join(ls))
    elif kind == "sym":
        b[pos:pos] = rng.choice([b"|", b":", b" | ", b"::", b"|x", b" |-3", b"\t"])
    elif kind == "bom":
        b[pos:pos] = b"\xef\xbb\xbf"
    elif kind == "cr":
        b[pos:pos] = b"\r"
    return kind, bytes(b)


def try_bad(sw):
    rng = sw.rng
    sw.begin("bad-input")
    which = rng.choice(["dlx", "dlx", "dlx", "board", "board", "csv", "merge"])
    truth = None
    if which == "dlx":
        text, _ = gen_xcc(rng)
        name = "in.dlx"
    elif which == "board":
        n = rng.randint(1, 6)
        text = board_text([gen_board(rng, n) for _ in range(rng.randint(1, 2))])
        name = "w.txt"
    elif which == "csv":
        n = rng.randint(1, 6)
        b = gen_board(rng, n)
        text = "\n".join(",".join(str(x) for x in row) for row in b) + "\n"
        if rng.random() < 0.3:
            text = "," + ",".join(str(i) for i in range(n)) + "\n" + "".join("%d,%s" % (i, l) + "\n" for i, l in enumerate(text.splitlines()))
        name = "w.csv"
    else:
        # shard records of a queens count: a tampered record must be refused, or
        # (a harmless change, e.g. in spacing) give the true total
        n = rng.randint(4, 9)
        m = rng.randint(1, 4)
        fmt = rng.choice(["json", "csv", "text"])
        parts = []
        for i in range(1, m + 1):
            r = sw.ok(["queens", "count", str(n), "--shard", "%d/%d" % (i, m), "--format", fmt])
            if r is None:
                return
            out = r[0].decode()
            if fmt == "csv" and parts:
                out = out.split("\n", 1)[1]
            parts.append(out)
        text = "".join(parts)
        truth = len(qsols(n))
        name = "rec.%s" % {"json": "jsonl", "csv": "csv", "text": "txt"}[fmt]
    kind, data = mutate(rng, text.encode())
    sw.write(name, data)
    sw.write("out", OLD)
    if which == "dlx":
        args = ["solve", name, "-o", "out"] + rng.choice([[], ["--count"], ["--format", "csv"], ["--minimize"], ["--count", "--shard", "1/2"]])
    elif which == "board":
        args = ["queens", "max", name, "-o", "out"]
    elif which == "csv":
        args = ["queens", "max", "--weights", name, "-o", "out"]
    else:
        args = ["merge", name, "-o", "out"]
    r = sw.run(args)
    if r is None:
        return
    rc, out, err = r
    tmp = stray_tmp(sw.scratch)
    if not sw.check(not tmp, "%s mutation: temporary file left beside out: %s" % (kind, tmp), "lost"):
        return
    if not sw.check(not CTRL.search(err), "%s mutation: raw control byte in stderr: %r" % (kind, err[:300]), "msg"):
        return
    if rc == 0:  # the mutation left a valid input
        got = sw.read("out")
        if not sw.check(got != OLD, "%s mutation: exit 0 but the -o file still has the old content" % kind, "lost"):
            return
        if truth is not None:
            sw.check(got.strip() == str(truth).encode(), "merge accepted tampered records (%s): total %s, true %d" % (kind, short(got), truth))
        return
    if not sw.check(sw.read("out") == OLD, "%s mutation: exit %d but the old -o file was changed" % (kind, rc), "lost"):
        return
    if not sw.check(rc == 2, "%s mutation: exit %d (want 0 or 2): %s" % (kind, rc, short(err))):
        return
    lines = [l for l in err.decode("utf-8", "replace").splitlines() if not l.startswith("warning:")]
    if len(lines) == 1 and "multiplicities" in lines[0] and lines[0].startswith("error: "):
        sw.stats["bad-input"]["refused"] += 1  # a valid input with an option it does not take
        return
    if which == "merge" and len(lines) > 1:  # merge names each problem, one a line
        if all(re.match(re.escape(name) + r":\d+", l) for l in lines[1:]):
            lines = lines[:1]
    ok = len(lines) == 1 and lines[0].startswith("error: ") and re.search(re.escape(name) + r":\d+", lines[0])
    # Shards missing from the set merge was given: a problem of no one file.
    ok = ok or (which == "merge" and len(lines) == 1 and lines[0].startswith("error: missing shards"))
    if not ok and sw.lenient and len(lines) == 1 and lines[0].startswith(("error: %s: " % name, "error: missing shards")) \
            and any(w in lines[0] for w in WHOLE_FILE_ERRORS):
        sw.notes.append("a whole-file error names no line: %s" % re.sub(r"\d+", "N", lines[0])[:60])
        return
    sw.check(ok, "%s mutation: want one 'error: %s:LINE...' line, got %s" % (kind, name, short(err)), "msg")


# =============================================================== 5. signals
def try_signal(sw, argv, setup, sig, delay, check_out):
    sw.begin("signals")
    if setup:
        for name, args in setup:
            r = sw.ok(args)
            if r is None:
                return
            sw.write(name, r[0])
    use_o = sw.rng.random() < 0.5
    if use_o:
        sw.write("out", OLD)
        argv = argv + ["-o", "out"]
    sw.cur_cmds.append(argv + ["# then kill -%s after %.2f s" % (signal.Signals(sig).name, delay)])
    p = subprocess.Popen([sw.xcover] + argv, cwd=sw.scratch, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(delay)
    finished_before = p.poll() is not None
    t0 = time.monotonic()
    if not finished_before:
        p.send_signal(sig)
    try:
        out, err = p.communicate(timeout=HANG_TIMEOUT)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        sw.fail("hang", "no exit within %.0f s of the signal" % HANG_TIMEOUT)
        return
    dt = time.monotonic() - t0
    rc = p.returncode
    if b"panicked" in err or rc == 101:
        sw.fail("panic", short(err))
        return
    if use_o:
        out = sw.read("out")
        if not sw.check(not stray_tmp(sw.scratch), "temporary file left after the signal", "lost"):
            return
    if finished_before:
        sw.notes.append("%s finished before the signal (exit %d)" % (" ".join(argv), rc))
        sw.check(rc == 0 and check_out(out), "finished run: exit %d, %s" % (rc, short(out)))
        return
    sw.worst_signal_exit = max(sw.worst_signal_exit, dt)
    if rc < 0:
        sw.fail("abort", "died of signal %d instead of a graceful stop" % -rc)
        return
    want = 130 if sig == signal.SIGINT else 143
    if not sw.check(rc == want, "exit %d after %s, want %d: %s" % (rc, signal.Signals(sig).name, want, short(err))):
        return
    if not sw.check(b"interrupted" in out + err, "no 'interrupted' in the output: %s / %s" % (short(out), short(err))):
        return
    if use_o and not sw.check(out != OLD and out.strip() != b"", "-o file not replaced by the interrupted result", "lost"):
        return
    sw.check(dt <= 1.0, "ended %.2f s after the signal (> 1 s)" % dt, "hang")


def signal_runs(sw, count):
    rng = sw.rng
    # (command, files to make first, check of a run that finished before the signal, latest signal)
    cmds = [
        (["queens", "count", "18", "-t", "1"], None, lambda o: b"666090624" in o, 2.0),  # about 3 s
        (["solve", "--count", "q16.dlx", "-t", "1"], [("q16.dlx", ["model", "queens", "16"])], lambda o: o.strip() == b"14772512", 3.0),
        (["queens", "max", "b40.txt", "-t", "1"], [("b40.txt", ["queens", "random", "40", "--seed", "3"])], lambda o: o.strip().isdigit(), 3.0),
        (["queens", "count", "19", "-t", "1"], None, lambda o: b"4968057848" in o, 3.0),
        (["solve", "--format", "csv", "q16.dlx", "-t", "1"], [("q16.dlx", ["model", "queens", "16"])], lambda o: True, 3.0),
    ]
    for i in range(count):
        argv, setup, chk, latest = cmds[i % len(cmds)]
        sig = rng.choice([signal.SIGINT, signal.SIGTERM])
        try_signal(sw, argv, setup, sig, rng.uniform(0.5, latest), chk)


# ================================================================== main
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--budget", type=float, default=600.0, help="seconds; no new try starts after it")
    ap.add_argument("--quick", action="store_true", help="a small run (about 60 s)")
    ap.add_argument("--xcover", default=os.environ.get("XCOVER", "target/release/xcover"))
    ap.add_argument("--lenient-messages", action="store_true",
                    help="accept 'error: FILE: ...' without a line for errors about the whole input (%s)" % ", ".join(WHOLE_FILE_ERRORS))
    ap.add_argument("--workdir", default=None, help="where the scratch files and reproducers go")
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else int(time.time()) % 100000
    budget = 60.0 if a.quick and a.budget == 600.0 else a.budget
    xcover = os.path.abspath(a.xcover)
    if not os.access(xcover, os.X_OK):
        sys.exit("error: no xcover binary at %s (--xcover PATH or $XCOVER)" % xcover)
    workdir = a.workdir or tempfile.mkdtemp(prefix="xcover-sweep-%d-" % seed)
    os.makedirs(workdir, exist_ok=True)
    workdir = os.path.abspath(workdir)
    sw = Sweep(xcover, workdir, seed)
    sw.lenient = a.lenient_messages
    start = time.monotonic()
    deadline = start + budget
    print("xcover trust sweep: seed %d, budget %.0f s, %s, work in %s" % (seed, budget, xcover, workdir), flush=True)

    ref = reference_counts()
    qns = list(range(1, 11)) + [n for n in (11, 12) if n in ref]
    if a.quick:
        qns = [n for n in qns if n <= 10]
    for n in qns:
        if time.monotonic() > deadline:
            break
        try_queens(sw, n, ref)
    if time.monotonic() < deadline:
        signal_runs(sw, 2 if a.quick else 10)
    mix = ["xcc"] * 4 + ["weighted"] * 2 + ["bad-input"] * 3
    while time.monotonic() < deadline:
        c = sw.rng.choice(mix)
        if c == "xcc":
            try_xcc(sw)
        elif c == "weighted":
            try_weighted(sw)
        else:
            try_bad(sw)
    wall = time.monotonic() - start

    print()
    hdr = ["category", "tries", "refused(ok)"] + COLUMNS
    rows = [[c, sw.stats[c]["tries"], sw.stats[c]["refused"]] + [sw.stats[c][k] for k in COLUMNS] for c in CATEGORIES]
    tot = ["total"] + [sum(r[i] for r in rows) for i in range(1, len(hdr))]
    w = [max(len(str(x)) for x in col) for col in zip(hdr, *rows, tot)]
    for r in [hdr] + rows + [tot]:
        print("  ".join(str(x).rjust(w[i]) if i else str(x).ljust(w[i]) for i, x in enumerate(r)))
    print()
    print("wall time %.1f s, seed %d; worst exit after a signal %.2f s" % (wall, seed, sw.worst_signal_exit))
    for n in sorted(set(sw.notes)):
        print("note:", n)
    if sw.failures:
        print("\n%d failure(s); reproducers (run the commands in the directory, XCOVER=%s):" % (len(sw.failures), xcover))
        groups = {}
        for f in sw.failures:  # similar failures together: the first two of each kind shown
            sig = (f[0], f[1], re.sub(r"\d+|'[^']*'", "N", f[2].split("got ", 1)[-1])[:45])
            groups.setdefault(sig, []).append(f)
        for sig, fs in groups.items():
            print("- [%s/%s] %d like this:" % (sig[0], sig[1], len(fs)))
            for cat, kind, msg, d, cmd in fs[:2]:
                print("    %s\n      cd %s && %s" % (msg, d, cmd))
        shutil.rmtree(sw.scratch, ignore_errors=True)
        return 1
    if a.workdir is None:
        shutil.rmtree(workdir, ignore_errors=True)
    print("no failures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
