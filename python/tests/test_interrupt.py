"""Ctrl-C: a child process sends SIGINT to itself while a long call runs."""

import json
import os
import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGINT to oneself needs POSIX")


def run_child(body, after=1.0):
    """Runs `body` in a child Python that receives SIGINT `after` seconds after it calls
    `arm()` (`queens_problem(n)` builds n-queens as a Problem); returns its JSON line and the
    wall time."""
    script = textwrap.dedent(
        f"""
        import json, os, signal, threading, time
        import dancelinks
        def arm():
            global start
            for t in {list(after) if isinstance(after, tuple) else [after]}:
                threading.Timer(t, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
            start = time.monotonic()
        def queens_problem(n):
            items = [f"r{{i}}" for i in range(n)] + [f"c{{i}}" for i in range(n)]
            d = range(2 * n - 1)
            diagonals = [f"a{{k}}" for k in d] + [f"b{{k}}" for k in d]
            options = [
                f"r{{r}} c{{c}} a{{r + c}} b{{r - c + n - 1}}" for r in range(n) for c in range(n)
            ]
            return dancelinks.Problem(items, options, secondary=diagonals)
        """
    ) + textwrap.dedent(body)
    t = time.monotonic()
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1]), time.monotonic() - t


def test_interrupted_count_gives_a_partial_lower_bound():
    got, wall = run_child(
        """
        arm()
        try:
            total = dancelinks.count(17, engine="dlx")
            print(json.dumps({"finished": total}))
        except dancelinks.Interrupted as e:
            print(json.dumps({
                "partial": e.partial, "done": e.done, "total": e.total,
                "keyboard": isinstance(e, KeyboardInterrupt),
                "seconds": time.monotonic() - start,
            }))
        """
    )
    assert "finished" not in got, "count(17) with dlx ended before the interrupt"
    assert got["keyboard"]
    assert 0 < got["done"] < got["total"]
    # A lower bound of A000170(17), and the call stopped soon after the signal.
    assert 0 < got["partial"] < 95815104
    assert got["seconds"] < 10


def test_interrupted_stack_keeps_the_boards_done():
    got, _ = run_child(
        """
        import numpy as np
        boards = np.random.default_rng(1).integers(0, 1000, size=(5000, 12, 12))
        arm()
        try:
            dancelinks.maximise(boards)
            print(json.dumps({"finished": True}))
        except dancelinks.Interrupted as e:
            rs = e.partial
            print(json.dumps({
                "boards": len(rs), "done": e.done, "total": e.total,
                "numbered": [r.board for r in rs] == list(range(1, len(rs) + 1)),
                # The boards before the last are proven; the last may be the one the
                # interrupt stopped, with its best layout so far.
                "optimal": all(r.status == "optimal" and r.value == r.bound for r in rs[:-1])
                and rs[-1].status in ("optimal", "interrupted"),
                "first": rs[0].value if rs else None,
                "seconds": time.monotonic() - start,
            }))
        """,
        after=1.5,
    )
    assert "finished" not in got
    assert 0 < got["boards"] == got["done"] < got["total"] == 5000
    assert got["numbered"] and got["optimal"]
    assert got["seconds"] < 10


def test_interrupted_problem_listing_keeps_the_solutions_found():
    got, _ = run_child(
        """
        p = queens_problem(15)
        arm()
        try:
            p.solutions()
            print(json.dumps({"finished": True}))
        except dancelinks.Interrupted as e:
            found = e.partial
            first = p.solutions(limit=min(len(found), 1000))
            print(json.dumps({
                "found": len(found),
                "prefix": found[:1000] == first,
                "seconds": time.monotonic() - start,
            }))
        """,
        after=0.5,
    )
    assert "finished" not in got
    assert got["found"] > 0 and got["prefix"]
    assert got["seconds"] < 10


def test_a_second_interrupt_abandons_a_call_that_cannot_stop():
    got, wall = run_child(
        """
        arm()
        try:
            h = dancelinks.heatmap(18)
            print(json.dumps({"finished": True}))
        except dancelinks.Interrupted as e:
            print(json.dumps({"partial": e.partial, "seconds": time.monotonic() - start}))
        """,
        after=(0.5, 1.0),
    )
    assert got["partial"] is None and got["seconds"] < 3
    assert wall < 10


def test_an_interrupted_problem_count_gives_a_lower_bound():
    got, _ = run_child(
        """
        p = queens_problem(16)
        arm()
        try:
            c = p.count(memo=False)
            print(json.dumps({"finished": int(c)}))
        except dancelinks.Interrupted as e:
            c = e.partial
            print(json.dumps({
                "count": int(c), "status": c.status, "seconds": time.monotonic() - start,
            }))
        """,
        after=0.5,
    )
    assert "finished" not in got
    # A lower bound of A000170(16) = 14,772,512.
    assert got["status"] == "interrupted" and got["count"] < 14772512
    assert got["seconds"] < 5


def test_an_interrupted_board_gives_its_best_layout_and_a_proven_bound():
    got, _ = run_child(
        """
        import numpy as np
        board = np.random.default_rng(7).integers(0, 100, size=(40, 40))
        arm()
        try:
            dancelinks.maximise(board)
            d = {"finished": True}
        except dancelinks.Interrupted as e:
            r = e.partial
            files = [int(q) for q in r.layouts[0]]
            placement = (
                sorted(files) == list(range(40))
                and len({q - k for k, q in enumerate(files)}) == 40
                and len({q + k for k, q in enumerate(files)}) == 40
            )
            score = int(sum(int(board[k, q]) for k, q in enumerate(files)))
            d = {
                "status": r.status, "value": int(r.value), "bound": int(r.bound),
                "score": score, "placement": placement, "seconds": time.monotonic() - start,
            }
        d["after"] = dancelinks.count(8)
        print(json.dumps(d))
        """,
        after=2.0,
    )
    assert "finished" not in got
    assert got["status"] == "interrupted" and got["placement"]
    assert got["value"] == got["score"] <= got["bound"]
    assert got["seconds"] < 10
    assert got["after"] == 92, "a later call runs unstopped"
