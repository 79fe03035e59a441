#!/usr/bin/python3
"""The win rate of each bundled Warmaster battle's two armies, the built-in
opponent playing both sides, with its 95% confidence interval, and how it
moves when one unit is added to a side: the question a club asks of a
scenario's balance.

For each battle, three runs of N seeded games: the battle as it is, with a
copy of one of side 0's units added behind its line, and with one of side 1's.
Each run is referee.simulate() over worker processes (one per core); the
same seeds give the same games, so the three runs differ by the unit alone
(and by the dice it changes). A shift larger than both intervals is a real
one; a battle whose base intervals both cover 50% is not shown to favour
either side at this N.

Run from a build: PYTHONPATH=build/release/python /usr/bin/python3 examples/battle_balance.py [--quick] [--svg-dir D]
"""

import argparse
import copy
import math
import os
import sys
import time

import referee


def centre(unit):
    xs = [s["x"] for s in unit["stands"]]
    ys = [s["y"] for s in unit["stands"]]
    return sum(xs) / len(xs), sum(ys) / len(ys)


def with_one_more_unit(scenario, side):
    """The scenario with a copy of one of `side`'s units placed behind its line, clear of every
    other stand and of the table's edges (None when no such place is found)."""
    s = copy.deepcopy(scenario)
    own, enemy = s["armies"][side], s["armies"][1 - side]
    if not own["units"] or not enemy["units"]:
        return None
    ey = sum(centre(u)[1] for u in enemy["units"]) / len(enemy["units"])
    oy = sum(centre(u)[1] for u in own["units"]) / len(own["units"])
    back = -1 if ey > oy else 1  # away from the enemy
    others = [(st["x"], st["y"]) for a in s["armies"] for u in a["units"] for st in u["stands"]]
    table = s.get("table", {})  # the defaults: 180 x 120 cm (docs/warmaster-format.md)
    width, height = table.get("width", 180), table.get("height", 120)
    units = sorted(own["units"], key=lambda u: (u.get("type") != "infantry", u["id"]))
    for template in units:
        for step in range(1, 9):
            for dx in (0, 12, -12, 24, -24, 36, -36):
                dy = back * 7 * step
                stands = [dict(st, x=st["x"] + dx, y=st["y"] + dy) for st in template["stands"]]
                inside = all(4 <= st["x"] <= width - 4 and 4 <= st["y"] <= height - 4 for st in stands)
                clear = all(math.dist((st["x"], st["y"]), o) >= 6.5 for st in stands for o in others)
                if inside and clear:
                    unit = dict(copy.deepcopy(template), id=template["id"] + "-added", stands=stands)
                    unit.pop("stands_lost", None)
                    own["units"].append(unit)
                    return s, template["id"]
    return None


def row(label, summary):
    cells = []
    for s in summary["sides"]:
        lo, hi = s["interval95"]
        cells.append(f"{s['win_rate']:6.1%} ({lo:5.1%}-{hi:5.1%})")
    return f"  {label:<30} {cells[0]:>24} {cells[1]:>24}  draws {summary['draws'] / summary['games']:5.1%}"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="12 games a run instead of 80 (for the tests)")
    p.add_argument("--games", type=int, default=None)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--svg-dir", help="write a bar chart of each run here (and a PNG where matplotlib imports)")
    a = p.parse_args()
    games = a.games or (12 if a.quick else 80)
    start = time.monotonic()
    total = 0
    for b in referee.bundled_battles("warmaster"):
        base = referee.load_bundled("warmaster", b["name"])
        scenario = base.scenario
        print(f"{b['name']}: {base.players[0]} (side 0) against {base.players[1]} (side 1), {games} games a run;"
              f" win rate (95% interval)")
        runs = [("as bundled", base)]
        for side in (0, 1):
            more = with_one_more_unit(scenario, side)
            if more is None:
                print(f"  (no room to add a unit to side {side})")
                continue
            runs.append((f"+1 {more[1]} (side {side})", referee.loads("warmaster", more[0], source=b["name"])))
        for number, (label, game) in enumerate(runs):
            results = referee.simulate(game, games=games, seed=1, players=("opponent", "opponent"),
                                       workers=a.workers, progress=False)
            total += games
            summary = referee.summarize(results, game.players)
            print(row(label, summary))
            if a.svg_dir:
                os.makedirs(a.svg_dir, exist_ok=True)
                stem = os.path.join(a.svg_dir, f"{b['name']}-{number}")
                referee.write_plot(summary, stem + ".svg", f"{b['name']}, {label}", png=stem + ".png")
    print(f"{total} games in {time.monotonic() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
