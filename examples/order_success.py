#!/usr/bin/python3
"""Order success by distance and Command value, measured by simulation beside
the exact odds the engine computes.

A General with Command 7 to 10 orders one unit of Halberdiers standing 10 to
70 cm from him (the only penalty is distance: -1 for over 20 cm, -2 for over
40 cm, -3 for over 60 cm; the enemy is far off). The order passes on 2D6 of
the effective Command or less. For each pair, referee.simulate() plays the
Empire's first Command phase N times with a Python player that gives that one
order and ends the phase, and counts the orders passed; the engine's
`order_odds` query gives the exact chance (30/36 for 9 or less, 26/36 for 8).
The simulated rate should sit within its 95% Wilson interval of the exact
chance about 19 times in 20.

Run from a build: PYTHONPATH=build/release/python /usr/bin/python3 examples/order_success.py [--quick]
"""

import argparse
import copy
import sys
import time

import referee

BATTLE = {
    "name": "One order",
    "description": "A General and one unit of Halberdiers; the Orcs far off.",
    "table": {"width": 200, "height": 120},
    "armies": [
        {"name": "Empire",
         "units": [{"id": "halberds", "name": "Halberdiers", "type": "infantry",
                    "stands": [{"x": 96, "y": 100, "facing": 0}, {"x": 100, "y": 100, "facing": 0},
                               {"x": 104, "y": 100, "facing": 0}]}],
         "characters": [{"id": "general", "name": "General", "role": "general", "command": 9, "x": 100, "y": 80}]},
        {"name": "Orcs",
         "units": [{"id": "boyz", "name": "Orc Boyz", "type": "infantry",
                    "stands": [{"x": 180, "y": 10, "facing": 180}, {"x": 184, "y": 10, "facing": 180},
                               {"x": 188, "y": 10, "facing": 180}]}],
         "characters": [{"id": "orc-general", "name": "Warboss", "role": "general", "command": 9,
                         "x": 184, "y": 4}]},
    ],
}
ORDER = {"type": "order", "character": "general", "units": ["halberds"]}


def order_once(state, rng):
    """Side 0's player: the one order at the start of the phase, then the end of the phase."""
    if state.phase() == "command: initiative":
        return ORDER
    for a in state.legal_actions():
        if a["type"] == "end_phase":
            return a
    return state.sample_action(rng)


def battle(command, gap):
    """The battle with the General's Command and `gap` cm between him and the unit's rear edge."""
    b = copy.deepcopy(BATTLE)
    general = b["armies"][0]["characters"][0]
    general["command"] = command
    general["y"] = 100 - 1 - gap  # the stands' centres are at y 100 and 2 cm deep
    return referee.loads("warmaster", b, source=f"command {command}, {gap} cm")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="200 phases a pair instead of 2,000 (for the tests)")
    p.add_argument("--workers", type=int, default=None)
    a = p.parse_args()
    phases = 200 if a.quick else 2000
    start = time.monotonic()
    print(f"{'Command':>7} {'distance':>9} {'needs':>6} {'exact':>13} {'simulated':>10} {'95% interval':>17}")
    inside = pairs = 0
    for command in (7, 8, 9, 10):
        for gap in (10, 30, 50, 65):
            game = battle(command, gap)
            odds = game.new_initial_state().query("order_odds", {"character": "general", "units": ["halberds"]})
            # Each pair its own master seed: runs from different master seeds share no game.
            results = referee.simulate(game, games=phases, seed=1000 * command + gap, players=(order_once, "random"),
                                       mode="phase", workers=a.workers, progress=False)
            passed = sum(r["passed"] for r in results)
            rolled = passed + sum(r["failed"] for r in results)
            assert rolled == phases, "one order a phase"
            lo, hi = referee.wilson_interval(passed, rolled)
            exact = odds["chance"]["value"]
            pairs += 1
            inside += lo <= exact <= hi
            print(f"{command:>7} {odds['distance']:>6.1f} cm {odds['needed']:>6} "
                  f"{odds['chance']['fraction']:>6} {exact:>6.1%} {passed / rolled:>10.1%} "
                  f"{lo:>8.1%} to {hi:.1%}")
    print(f"{inside} of {pairs} exact chances inside the simulated rate's 95% interval; "
          f"{pairs * phases} phases in {time.monotonic() - start:.1f} s")
    return 0 if inside >= pairs - 3 else 1


if __name__ == "__main__":
    sys.exit(main())
