#!/usr/bin/env python3
"""Throughput of referee.simulate() on this machine: in one process, over
local worker processes, and on a real Dask cluster of 1 and 2 workers (a
scheduler and one-thread workers on loopback, started and stopped here), for
the figures of docs/scale.md.

    PYTHONPATH=build/release/python /usr/bin/python3 python/bench/simulate_scaling.py \
        [--games 200] [--phases 10000] [--repeats 3]

Each figure is the best of --repeats runs (a shared host only ever slows a
run down), in games (or phases) a second, for two workloads: whole games of
the fair battle (pitched-battle) with the built-in opponent on both sides,
and random first Command phases of the default battle. Prints the host's
load average before each, since a busy host caps what two workers can gain.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import referee
from referee.simulation import simulate_lines

WORKLOADS = {
    "whole games, opponent v opponent (pitched-battle)": ("pitched-battle", "game", ("opponent", "opponent")),
    "random Command phases (default)": ("default", "phase", ("random", "random")),
}


def cluster(workers, tmp):
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(referee.__file__)))
    sf = os.path.join(tmp, f"scheduler-{workers}.json")
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", "0", "--no-dashboard", "--scheduler-file", sf],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    while not os.path.exists(sf):
        time.sleep(0.1)
    for _ in range(workers):
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file", sf,
                                       "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1"],
                                      env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    with open(sf, encoding="utf-8") as f:
        return procs, json.load(f)["address"]


def best_rate(n, repeats, run):
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = max(best, n / (time.perf_counter() - start))
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--phases", type=int, default=10000)
    p.add_argument("--repeats", type=int, default=3)
    a = p.parse_args()
    from distributed import Client  # noqa: PLC0415

    for title, (battle, mode, players) in WORKLOADS.items():
        game = referee.load_bundled("warmaster", battle)
        n = a.games if mode == "game" else a.phases

        def run(**kw):
            return lambda: simulate_lines(game, games=n, seed=1, players=players, mode=mode, progress=False, **kw)

        print(f"{title}, {n} a run; load average {os.getloadavg()[0]:.2f}")
        reference = simulate_lines(game, games=n, seed=1, players=players, mode=mode, workers=1)
        for workers in (1, 2):
            rate = best_rate(n, a.repeats, run(workers=workers))
            print(f"  local, {workers} process{'es' if workers > 1 else ''}: {rate:9.1f} a second")
        with tempfile.TemporaryDirectory() as tmp:
            for workers in (1, 2):
                procs, address = cluster(workers, tmp)
                try:
                    with Client(address) as client:
                        client.wait_for_workers(workers, timeout=60)
                        assert simulate_lines(game, games=n, seed=1, players=players, mode=mode,
                                              client=client) == reference
                        rate = best_rate(n, a.repeats, run(client=client))
                        print(f"  Dask, {workers} worker{'s' if workers > 1 else ''}:    {rate:9.1f} a second")
                finally:
                    for proc in procs:
                        proc.terminate()
                    for proc in procs:
                        proc.wait()


if __name__ == "__main__":
    main()
