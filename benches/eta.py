#!/usr/bin/env python3
"""How good is the time left that a long count's progress line shows?

Runs each count with its stderr on a pseudo-terminal (so that xcover draws its progress line,
as it does only on a terminal), reads the line as it changes, and after the run compares the
time left that the line showed at 25% of the run's wall time with the truth (the run's end
minus that moment). One CSV row per count on stdout:

    name,seconds,at,shown_left,true_left,ratio,within_50pct

`ratio` is shown_left / true_left (1 is exact); `within_50pct` says whether it is within
±50%; a count shorter than --min-seconds (20 by default) is listed with an empty verdict,
and one whose line showed no time left by then with an empty `shown_left`.

The counts: the benchmark set's models (the DLX files are made with `xcover model` into
--dir) counted by `xcover solve --count`, and `xcover queens count 19`; `--only NAME,...` picks
some, `--threads T` passes `-t T` to each (default: all cores, as the commands default to).

Usage: python3 benches/eta.py [--xcover target/release/xcover] [--dir target/eta-bench]
           [--min-seconds 20] [--only macmahon-4x6,queens-19] [--threads T] [--list]
"""
import argparse
import os
import pty
import re
import select
import subprocess
import sys
import time

# name -> (the `xcover model` arguments making its DLX file, or None; the count's arguments,
# with {dlx} for the file).
COUNTS = {
    "pentominoes-6x10-knuth": (["pentominoes"], ["solve", "--count", "--knuth", "{dlx}"]),
    "langford-15": (["langford", "15"], ["solve", "--count", "--memo", "off", "{dlx}"]),
    "macmahon-4x6": (["macmahon", "4x6"], ["solve", "--count", "--memo", "off", "{dlx}"]),
    "queens-16-dlx": (["queens", "16"], ["solve", "--count", "--memo", "off", "{dlx}"]),
    "queens-19": (None, ["queens", "count", "19"]),
}

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
LEFT = re.compile(r"about ([0-9.]+) (seconds|minutes|hours|days|years) left")
UNIT = {"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400, "years": 365.25 * 86400}


def run_on_a_terminal(cmd):
    """Runs cmd with stderr on a pty and stdout to a pipe; returns (wall seconds, stdout,
    [(seconds since start, time left shown in seconds)])."""
    master, slave = pty.openpty()
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    readings, buf = [], ""
    while True:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(master, 65536).decode("utf-8", "replace")
            except OSError:  # the child closed the terminal
                chunk = ""
            if not chunk and proc.poll() is not None:
                break
            now = time.monotonic() - start
            buf += chunk
            *lines, buf = re.split(r"[\r\n]", buf)
            for line in lines:
                m = LEFT.search(ANSI.sub("", line))
                if m:
                    readings.append((now, float(m.group(1)) * UNIT[m.group(2)]))
        elif proc.poll() is not None:
            break
    out = proc.stdout.read().decode()
    proc.wait()
    os.close(master)
    return time.monotonic() - start, out, readings


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--xcover", default="target/release/xcover")
    ap.add_argument("--dir", default="target/eta-bench")
    ap.add_argument("--min-seconds", type=float, default=20.0)
    ap.add_argument("--only", default="")
    ap.add_argument("--threads", default=None)
    ap.add_argument("--list", action="store_true", help="print the counts and their commands")
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    names = [n for n in (a.only.split(",") if a.only else COUNTS) if n]
    print("name,seconds,at,shown_left,true_left,ratio,within_50pct", flush=True)
    for name in names:
        if name not in COUNTS:
            sys.exit(f"eta.py: unknown count {name!r} (one of {', '.join(COUNTS)})")
        model, count = COUNTS[name]
        dlx = os.path.join(a.dir, name + ".dlx")
        if model is not None and not os.path.exists(dlx):
            with open(dlx, "wb") as f:
                subprocess.run([a.xcover, "model", *model], stdout=f, check=True)
        cmd = [a.xcover] + [c.replace("{dlx}", dlx) for c in count]
        if a.threads is not None:
            cmd += ["-t", a.threads]
        if a.list:
            print(f"{name}: {' '.join(cmd)}", file=sys.stderr)
            continue
        seconds, out, readings = run_on_a_terminal(cmd)
        at = 0.25 * seconds
        shown = next((left for t, left in readings if t >= at), None)
        when = next((t for t, _ in readings if t >= at), at)
        true_left = seconds - when
        ratio = "" if shown is None or true_left <= 0 else f"{shown / true_left:.2f}"
        verdict = ""
        if seconds >= a.min_seconds and ratio:
            verdict = "yes" if 0.5 <= float(ratio) <= 1.5 else "no"
        shown_s = "" if shown is None else f"{shown:.1f}"
        print(f"{name},{seconds:.1f},{when:.1f},{shown_s},{true_left:.1f},{ratio},{verdict}", flush=True)
        print(f"eta.py: {name}: {out.strip()[:60]} in {seconds:.1f} s, {len(readings)} readings",
              file=sys.stderr)


if __name__ == "__main__":
    main()
