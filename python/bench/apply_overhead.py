#!/usr/bin/env python3
"""What one State.apply from Python costs over the same call in C++ (target:
at most 2 us; issue "Python bindings", Speed).

The same work as bench/games_interface_bench.cpp's BM_GameInterfaceOverhead:
copy the state, then validate and apply one legal Ancients move (the heavy
cavalry a_hc1 of the bundled centre clash, ordered by "Order Three Center",
to 7,5). Python adds converting the action dict to JSON, the calls through
pybind11, releasing and taking the GIL, and making the Outcome.

    PYTHONPATH=build/release/python /usr/bin/python3 python/bench/apply_overhead.py \
        [--cpp build/release/bench/games_interface_bench] [--repeats 15] [--ops 20000]

Prints the median time per operation of each repeat, from Python and (with
--cpp) from the C++ benchmark, and their difference. On a busy host, count
instructions instead (as scripts/bench-compare.sh does for the C++ side):
`--count N` makes exactly N operations after the set-up and prints nothing,
so that two runs under `valgrind --tool=callgrind` with different N give the
instructions per operation; compare with the C++ benchmark run the same way
with REFEREE_BENCH_ITERATIONS=N.
"""

import argparse
import json
import statistics
import subprocess
import sys
import time

import referee

SETUP = [
    {"type": "play_card", "card": "order-three-center"},
    {"type": "order", "units": ["a_hi1", "a_hc1"], "leaders": ["caesar"]},
]
MOVE = {"type": "move", "unit": "a_hc1", "to": [7, 5]}


def ordered():
    game = referee.load("ancients", referee.SOURCE_DIR + "/scenarios/ancients/centre_clash.json")
    match = referee.Match(game, seed=1)
    for a in SETUP:
        match.play(a)
    return match.state, referee.Dice(seed=1)


def python_ns(repeats, ops):
    start, dice = ordered()
    clone_only, whole = [], []
    for _ in range(repeats):
        t0 = time.perf_counter_ns()
        for _ in range(ops):
            start.clone()
        t1 = time.perf_counter_ns()
        for _ in range(ops):
            start.clone().apply(MOVE, dice)
        t2 = time.perf_counter_ns()
        clone_only.append((t1 - t0) / ops)
        whole.append((t2 - t1) / ops)
    return statistics.median(whole), statistics.median(clone_only)


def cpp_ns(binary, repeats):
    out = subprocess.run(
        [binary, "--benchmark_filter=BM_GameInterfaceOverhead$", f"--benchmark_repetitions={repeats}",
         "--benchmark_format=json", "--benchmark_report_aggregates_only=true"],
        check=True, capture_output=True, text=True).stdout
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            scale = {"ns": 1, "us": 1e3, "ms": 1e6}[b["time_unit"]]
            return b["real_time"] * scale
    raise SystemExit("no median in the benchmark's output")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cpp", help="bench/games_interface_bench, to measure the same call in C++")
    p.add_argument("--repeats", type=int, default=15)
    p.add_argument("--ops", type=int, default=20000)
    p.add_argument("--count", type=int, help="make exactly this many operations, print nothing (for callgrind)")
    o = p.parse_args()
    if o.count is not None:
        start, dice = ordered()
        for _ in range(o.count):
            start.clone().apply(MOVE, dice)
        return 0
    py, py_clone = python_ns(o.repeats, o.ops)
    print(f"python: clone + apply {py / 1000:.2f} us per operation (clone alone {py_clone / 1000:.2f} us), "
          f"median of {o.repeats} x {o.ops}")
    if o.cpp:
        cpp = cpp_ns(o.cpp, o.repeats)
        print(f"c++:    clone + apply {cpp / 1000:.2f} us per operation (median of {o.repeats})")
        print(f"overhead of Python: {(py - cpp) / 1000:.2f} us per apply (target <= 2 us)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
