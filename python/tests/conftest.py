"""Shared helpers of the tests: independent checks written in plain Python."""

import itertools
import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "data"


def non_attacking(files):
    """Whether queens on (rank r, file files[r]) attack each other nowhere."""
    n = len(files)
    if sorted(files) != list(range(n)):
        return False
    return all(abs(files[i] - files[j]) != j - i for i in range(n) for j in range(i + 1, n))


def brute_force_queens(n):
    """Every n-queens solution (files per rank) in lexicographic order, by permutations."""
    return [p for p in itertools.permutations(range(n)) if non_attacking(p)]


def xcover_binary():
    """The built command-line tool of the root crate (the newer of release and debug, so
    that a stale build is not compared), or None."""
    built = [
        exe
        for exe in (ROOT / "target" / p / "xcover" for p in ("release", "debug"))
        if exe.is_file() and os.access(exe, os.X_OK)
    ]
    if built:
        return max(built, key=lambda exe: exe.stat().st_mtime)
    found = shutil.which("xcover")
    return Path(found) if found else None


@pytest.fixture
def xcover():
    exe = xcover_binary()
    if exe is None:
        pytest.skip("the xcover binary is not built (cargo build --release)")
    return exe
