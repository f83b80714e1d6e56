#!/usr/bin/env python3
"""Runs one command and prints "CPU WALL RC": the CPU seconds (user + system) of the process
and of the processes it waited for, from wait4; the wall-clock seconds from start to its end;
its exit code, 124 when it was killed after LIMIT seconds (as timeout(1) says).

    benches/cputime.py LIMIT INPUT OUTPUT ERRORS -- COMMAND ARGS...

INPUT, OUTPUT and ERRORS are the files given to its standard input, output and error.
benches/knuth.sh times every solver with it: on a virtual machine, a short run's wall-clock
time also holds the wait until the host runs the vCPU that should wake its parent, which
moves a 3 ms run to 7 ms from one run to the next (docs/lab-notes.md, "the suite in CPU
seconds"); its CPU time does not.
"""
import os
import signal
import subprocess
import sys
import threading
import time


def main() -> int:
    limit, stdin, stdout, stderr = sys.argv[1:5]
    if sys.argv[5] != "--":
        sys.exit("usage: cputime.py LIMIT INPUT OUTPUT ERRORS -- COMMAND ARGS...")
    command = sys.argv[6:]
    with open(stdin, "rb") as i, open(stdout, "wb") as o, open(stderr, "wb") as e:
        start = time.perf_counter()
        try:
            child = subprocess.Popen(command, stdin=i, stdout=o, stderr=e, start_new_session=True)
        except OSError as error:
            print(f"cputime.py: {command[0]}: {error.strerror}", file=e)
            print("0 0 127")
            return 0
        killed = []

        def kill() -> None:
            try:
                os.killpg(child.pid, signal.SIGKILL)
                killed.append(True)
            except ProcessLookupError:  # it ended as the limit came
                pass

        timer = threading.Timer(float(limit), kill)
        timer.start()
        _, status, usage = os.wait4(child.pid, 0)
        timer.cancel()
        wall = time.perf_counter() - start
    rc = 124 if killed else os.waitstatus_to_exitcode(status)
    print(f"{usage.ru_utime + usage.ru_stime:.5f} {wall:.5f} {rc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
