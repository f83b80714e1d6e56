"""Ctrl-C: a child process sends SIGINT to itself while a long call runs."""

import json
import os
import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGINT to oneself needs POSIX")


def run_child(body, after=1.0, wall=False):
    """Runs `body` in a child Python that receives SIGINT `after` seconds after it calls
    `arm()` (`queens_problem(n)` builds n-queens as a Problem); returns its JSON line and the
    wall time (and with `wall`, the `time.monotonic()` at which it ended, the clock the child
    reads too)."""
    script = textwrap.dedent(
        f"""
        import json, os, signal, threading, time
        import dancelinks
        # A shell's background job starts with SIGINT ignored, and a Python started so keeps
        # it ignored: the child takes Ctrl-C as an interactive Python does, whoever ran it.
        signal.signal(signal.SIGINT, signal.default_int_handler)
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
    ended = time.monotonic()
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout.strip().splitlines()[-1])
    return (got, ended - t, ended) if wall else (got, ended - t)


# A000170(18) and A002562(18): what count(18) returns when it ends whole.
ALL_18, UNIQUE_18 = 666090624, 83263591

# Every way of counting, each interrupted at two delays of 0.3 to 3 s: the first comes before
# any of these counts can end (count(18) takes over a second on two quiet cores), the second
# may come after (then the whole count must be the answer).
ENGINES = {
    "default": ("dancelinks.count(18)", ALL_18, (0.5, 2.0)),
    "bits": ("dancelinks.count(18, engine='bits')", ALL_18, (0.5, 3.0)),
    "dlx": ("dancelinks.count(18, engine='dlx')", ALL_18, (0.7, 1.5)),
    "unique": ("dancelinks.count(18, unique=True)", UNIQUE_18, (0.5, 2.5)),
    "threads=1": ("dancelinks.count(18, threads=1)", ALL_18, (0.6, 3.0)),
    "progress": ("dancelinks.count(18, progress=lambda *a: None)", ALL_18, (0.5, 1.7)),
    # Meeting in the middle builds its tables before it counts: the whole of count(17) takes
    # about 1 s on two quiet cores, so the second signal comes well after its end (a signal at
    # its very end finds every task done, and the count is still reported cut short).
    "tables": ("dancelinks.count(17)", 95815104, (0.3, 3.0)),
}


@pytest.mark.parametrize("engine", ENGINES)
def test_an_interrupted_count_raises_and_never_returns_a_partial_number(engine):
    call, whole, delays = ENGINES[engine]
    got, _, ended = run_child(
        f"""
        results = []
        for delay in {list(delays)}:
            sent = []
            def fire():
                sent.append(time.monotonic())
                os.kill(os.getpid(), signal.SIGINT)
            threading.Timer(delay, fire).start()
            try:
                results.append({{"returned": {call}}})
            except dancelinks.Interrupted as e:
                results.append({{
                    "partial": e.partial, "keyboard": isinstance(e, KeyboardInterrupt),
                    "after_signal": time.monotonic() - sent[0],
                }})
            except KeyboardInterrupt:
                # The signal came as the count returned, after its last look for one: Python
                # raises it at the call's next bytecode, and no number is returned at all.
                results.append({{"late": True}})
            # Wait for a timer that the count outran (its signal then lands here).
            while not sent:
                try:
                    time.sleep(0.05)
                except KeyboardInterrupt:
                    pass
        results.append({{"last_signal": sent[0]}})
        print(json.dumps(results))
        """,
        wall=True,
    )
    *counts, last = got
    for c in counts:
        if "returned" in c:
            assert c["returned"] == whole, f"{engine}: a partial count returned as the answer"
        elif "late" in c:
            continue
        else:
            assert c["keyboard"] and 0 <= c["partial"] < whole
            assert c["after_signal"] < 1.0, f"{engine}: stopped {c['after_signal']:.2f} s late"
    assert any("partial" in c for c in counts), f"{engine} ended before every interrupt"
    assert ended - last["last_signal"] < 1.0, "the process ended late after the signal"


def test_an_interrupted_heatmap_raises_at_once():
    got, _ = run_child(
        """
        arm()
        try:
            h = dancelinks.heatmap(18)
            print(json.dumps({"finished": True}))
        except dancelinks.Interrupted as e:
            print(json.dumps({"partial": e.partial, "seconds": time.monotonic() - start}))
        """,
        after=0.8,
    )
    assert "finished" not in got
    assert got["partial"] is None and got["seconds"] < 0.8 + 1.0


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
    assert got["seconds"] < 1.5 + 1.0, "the stack stopped late after the signal"


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
    assert got["seconds"] < 0.5 + 1.0


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
    assert got["seconds"] < 0.5 + 1.0


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
    assert got["seconds"] < 2.0 + 1.0
    assert got["after"] == 92, "a later call runs unstopped"
