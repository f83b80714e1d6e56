"""Python overhead against the command line on the same work (a benchmark, not a test).

    python benches/overhead.py [PATH/TO/xcover]   (default: target/release/xcover of the root)

Times, best of a few wall-clock runs: `count(16)` against `xcover queens count 16`, and
`maximise` of 10,000 random 8x8 boards in one call against `xcover queens max` on the same
boards, with and without reading the board file with numpy.
"""

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import dancelinks

ROOT = Path(__file__).resolve().parents[2]


def best_of(runs, f):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    exe = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "target" / "release" / "xcover"
    if not exe.is_file():
        sys.exit(f"overhead.py: no {exe} (cargo build --release)")

    def cli(*args):
        subprocess.run([str(exe), *args], check=True, stdout=subprocess.DEVNULL)

    print(f"{'work':34} {'xcover':>9} {'python':>9} {'ratio':>6}")
    c = best_of(3, lambda: cli("queens", "count", "16"))
    p = best_of(3, lambda: dancelinks.count(16))
    print(f"{'count 16':34} {c:8.3f}s {p:8.3f}s {p / c:6.2f}")

    with tempfile.TemporaryDirectory() as tmp:
        boards = Path(tmp) / "boards.txt"
        cli("queens", "random", "8", "--boards", "10000", "--seed", "1", "-o", str(boards))

        def read():
            return np.fromstring(boards.read_text(), dtype=np.int64, sep=" ")[1:].reshape(-1, 8, 8)

        def python_max():
            assert len(dancelinks.maximise(read())) == 10000

        stack = read()
        c = best_of(5, lambda: cli("queens", "max", str(boards), "--format", "csv"))
        p = best_of(5, python_max)
        print(f"{'max, 10,000 boards of 8x8 (file)':34} {c:8.3f}s {p:8.3f}s {p / c:6.2f}")
        p = best_of(5, lambda: dancelinks.maximise(stack))
        print(f"{'max, the same boards (one call)':34} {c:8.3f}s {p:8.3f}s {p / c:6.2f}")


if __name__ == "__main__":
    main()
