#!/usr/bin/env python3
"""Median wall time of two commands measured in alternation.

    scripts/interleaved-median.py RUNS 'COMMAND A' 'COMMAND B'

Runs three warm-ups of each, then RUNS rounds; each round runs both commands back to back (A first
in even rounds, B first in odd ones), output to /dev/null. Prints "median_a median_b" in
milliseconds. Alternating keeps a shared machine's slow and fast spells from landing on one command
only, which back-to-back batches of runs (hyperfine's way) cannot avoid.
"""
import os
import shlex
import statistics
import sys
import time


def run(argv):
    start = time.perf_counter_ns()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
    _, status = os.waitpid(pid, 0)
    elapsed = (time.perf_counter_ns() - start) / 1e6
    if status != 0:
        sys.exit("command failed: " + " ".join(argv))
    return elapsed


def main():
    runs = int(sys.argv[1])
    commands = [shlex.split(sys.argv[2]), shlex.split(sys.argv[3])]
    for _ in range(3):
        for command in commands:
            run(command)
    times = [[], []]
    for round_index in range(runs):
        order = (0, 1) if round_index % 2 == 0 else (1, 0)
        for which in order:
            times[which].append(run(commands[which]))
    print("%.1f %.1f" % (statistics.median(times[0]), statistics.median(times[1])))


main()
