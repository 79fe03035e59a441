"""Seeded games in bulk: ``referee.simulate()`` and ``python -m referee simulate``.

A run of N games from a master seed S plays game i with the seed
simulation_game_seed(S, i), each a pure function of (battle, players, seed)
computed by the engine
(core/simulate.hpp), so the results are the same bytes however the run is cut
into tasks and whichever worker finishes first. The index range is cut into
tasks of up to 200 games; each task is one engine call that releases the GIL.
Tasks run in this process (``workers=1``), in worker processes of this
machine (the default, one per core), or on a Dask distributed cluster
(``client=``, a ``distributed.Client``; ``referee <system> simulate
--scheduler tcp://HOST:8786`` comes here). docs/scale.md says how to run a
million games on a cluster.
"""

import argparse
import json
import math
import os
import sys
import time

from . import _referee

__all__ = ["simulate", "summarize", "write_results", "write_plot", "battle_spec"]

_GAMES = {}  # battle spec (as JSON text) -> Game, one load per worker process


def _input_error(field, problem):
    """referee.InputError as the engine raises it: with its field and problem."""
    e = _referee.InputError(f"{field}: {problem}")
    e.field, e.problem = field, problem
    return e


def battle_spec(battle, system=None, settings=None):
    """What a worker needs to load the battle: a plain dict, picklable.

    `battle` is a referee.Game, or a battle file's path with `system`."""
    if isinstance(battle, _referee.Game):
        return {"system": battle.system, "scenario": battle.scenario, "source": battle.source,
                "settings": battle.settings}
    if system is None:
        raise _input_error("system", "needed with a battle file's path (or pass a referee.Game)")
    game = _referee.load(system, battle, settings)
    return {"system": system, "scenario": game.scenario, "source": game.source, "settings": game.settings}


def _game(spec):
    key = json.dumps(spec, sort_keys=True)
    game = _GAMES.get(key)
    if game is None:
        game = _referee.loads(spec["system"], spec["scenario"], spec["settings"], spec["source"])
        _GAMES[key] = game
    return game


class _Run:
    """What every task of a run shares. An object, not a tuple: Dask would take a
    tuple that starts with a function (a Python player) for a task of its own."""

    def __init__(self, spec, players, seed, mode, max_actions):
        self.spec, self.players, self.seed, self.mode, self.max_actions = spec, list(players), seed, mode, max_actions


def _run_task(run, start, count):
    """One task: games start .. start + count - 1, as JSON lines."""
    lines = _referee._simulate_lines(_game(run.spec), run.players, run.seed, start, count, run.mode, run.max_actions)
    return start, lines


class _Progress:
    """Games done of total, games per second and the time left, on stderr."""

    def __init__(self, total, show):
        self.total, self.tty = total, sys.stderr.isatty()
        self.on = self.tty if show is None else bool(show)
        self.start = self.last = time.monotonic()
        self.shown = -1

    def update(self, done):
        now = time.monotonic()
        if not self.on or self.shown == self.total:
            return
        if done < self.total and now - self.last < (0.2 if self.tty else 1.0):
            return
        self.last, self.shown = now, done
        rate = done / (now - self.start) if now > self.start else 0.0
        left = int((self.total - done) / rate + 0.5) if rate > 0 else 0
        filled = 30 * done // max(1, self.total)
        line = (f"[{'#' * filled}{'.' * (30 - filled)}] {done}/{self.total} games  {rate:.1f} games/s  "
                f"{left // 60}:{left % 60:02d} left")
        sys.stderr.write(("\r" + line + ("\n" if done >= self.total else "")) if self.tty else line + "\n")
        sys.stderr.flush()


def _tasks(games, parallel, chunk_size):
    size = chunk_size or max(1, min(200, math.ceil(games / (4 * max(1, parallel)))))
    return [(start, min(size, games - start)) for start in range(0, games, size)]


def _check(games, seed, players, mode, max_actions):
    if not isinstance(games, int) or games < 1:
        raise _input_error("games", f"expected a whole number of at least 1, not {games!r}")
    if not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise _input_error("seed", f"expected a whole number from 0 to 2^64 - 1, not {seed!r}")
    if not isinstance(max_actions, int) or max_actions < 1:
        raise _input_error("max_actions", f"expected a whole number of at least 1, not {max_actions!r}")
    if isinstance(players, str) or len(players) != 2:
        raise _input_error("players", "expected two players, one a side")


def simulate_lines(battle, games=100, seed=1, players=("random", "random"), mode="game", workers=None,
                   client=None, progress=None, chunk_size=None, max_actions=20000, system=None, settings=None):
    """As simulate(), but the results as the engine's JSON lines (text, in index order)."""
    _check(games, seed, players, mode, max_actions)
    spec = battle_spec(battle, system, settings)
    _referee._simulate_lines(_game(spec), list(players), seed, 0, 0, mode, max_actions)  # bad players, mode: here
    bar = _Progress(games, progress)
    lines = [None] * games
    done = 0

    def take(result):
        nonlocal done
        start, chunk = result
        lines[start:start + len(chunk)] = chunk
        done += len(chunk)
        bar.update(done)

    run = _Run(spec, players, seed, mode, max_actions)
    if client is not None:
        from distributed import as_completed  # noqa: PLC0415 (Dask only when asked for)

        parallel = max(1, sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values()))
        futures = [client.submit(_run_task, run, start, n, pure=False)
                   for start, n in _tasks(games, parallel, chunk_size)]
        for future in as_completed(futures):
            take(future.result())
        return lines
    workers = workers or os.cpu_count() or 1
    tasks = _tasks(games, workers, chunk_size)
    if workers > 1:
        import pickle  # noqa: PLC0415

        for i, player in enumerate(players):
            try:
                pickle.dumps(player)
            except (pickle.PicklingError, AttributeError, TypeError):
                raise _input_error(f"players[{i}]", "a function that plays over worker processes must be picklable "
                                   "(defined at a module's top level), or pass workers=1") from None
    if workers == 1:
        for start, n in tasks:
            take(_run_task(run, start, n))
        return lines
    import multiprocessing  # noqa: PLC0415
    from concurrent.futures import ProcessPoolExecutor, as_completed  # noqa: PLC0415

    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
        for future in as_completed([pool.submit(_run_task, run, start, n) for start, n in tasks]):
            take(future.result())
    return lines


def simulate(battle, games=100, seed=1, players=("random", "random"), mode="game", workers=None, client=None,
             progress=None, chunk_size=None, max_actions=20000, system=None, settings=None):
    """Plays `games` seeded games of `battle` and returns one dict a game, in index order.

    battle: a referee.Game, or a battle file's path with `system`.
    seed: the master seed; game i plays with simulation_game_seed(seed, i) (its
        dict's "seed"); runs from different master seeds share no game.
    players: one a side, each "random" (a random legal action), "opponent"
        (the system's built-in opponent) or a function fn(state, rng) -> action
        (None: no action) called with a copy of the state and the side's own
        referee.Rng; with worker processes or Dask it must be picklable (a
        function defined at a module's top level).
    mode: "game" (whole battles) or "phase" (each the battle's first phase
        only: a Warmaster Command phase).
    workers: processes of this machine (default one per core; 1: this process).
    client: a distributed.Client: the tasks run on its cluster instead.
    progress: show a progress bar on stderr (default: when stderr is a terminal).

    Each dict: index, seed, winner (0, 1 or None), over, reason, turn, phase,
    actions, by_type (actions by their "type"), passed and failed (rolls whose
    result says so: Warmaster's orders), and refused when an action was.
    Bad arguments raise referee.InputError naming the field (players[1])."""
    lines = simulate_lines(battle, games, seed, players, mode, workers, client, progress, chunk_size, max_actions,
                           system, settings)
    return [json.loads(line) for line in lines]


def summarize(results, names=("side 0", "side 1")):
    """Wins per side with each win rate's 95% Wilson interval, draws, unfinished, means and rolls."""
    return _referee._simulation_summary([r if isinstance(r, str) else json.dumps(r) for r in results], list(names))


def write_results(lines, path):
    """The JSON lines as `referee <system> simulate --results` writes them."""
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(line + "\n" for line in lines)


def write_plot(summary, path, title="", png=None):
    """A bar chart of a summary as SVG at `path`; and as PNG at `png` when given and matplotlib imports
    (returns whether the PNG was written)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(_referee._summary_svg(summary, title))
    if png is None:
        return False
    try:
        import matplotlib  # noqa: PLC0415

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # noqa: PLC0415
    except ImportError:
        return False
    n = max(1, summary["games"])
    labels = [f"{s['army']} wins" for s in summary["sides"]] + ["draws", "unfinished"]
    shares = [s["win_rate"] for s in summary["sides"]] + [summary["draws"] / n, summary["unfinished"] / n]
    errors = [[max(0.0, s["win_rate"] - s["interval95"][0]) for s in summary["sides"]] + [0, 0],
              [max(0.0, s["interval95"][1] - s["win_rate"]) for s in summary["sides"]] + [0, 0]]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.bar(labels, [100 * x for x in shares], yerr=[[100 * e for e in side] for side in errors], capsize=6,
           color=["#3b6fb6", "#b6493b", "#888888", "#cccccc"])
    ax.set_ylabel("% of games")
    ax.set_title(f"{title}\n{summary['games']} games; whiskers: 95% Wilson interval")
    fig.tight_layout()
    fig.savefig(png)
    plt.close(fig)
    return True


def _summary_text(summary, a, seconds):
    n = summary["games"]
    text = (f"{n} {a.mode}s on {a.battle}, master seed {a.seed}, {a.side0} against {a.side1}\n")
    for side, s in enumerate(summary["sides"]):
        lo, hi = s["interval95"]
        text += (f"side {side} ({s['army']}): {s['wins']} wins, {100 * s['win_rate']:.1f}% "
                 f"(95% interval {100 * lo:.1f}% to {100 * hi:.1f}%)\n")
    text += (f"draws {summary['draws']}, unfinished {summary['unfinished']}, refused {summary['refused']}; "
             f"mean turns {summary['mean_turns']:.2f}, mean actions {summary['mean_actions']:.1f}; rolls passed "
             f"{summary['passed']}, failed {summary['failed']}; {seconds:.1f} s, "
             f"{n / seconds if seconds > 0 else 0:.1f} games/s\n")
    return text


def _main(argv=None):
    """`referee <system> simulate --scheduler ...` runs this: the same options and the same files."""
    p = argparse.ArgumentParser(prog="python -m referee simulate", description=__doc__.splitlines()[0])
    p.add_argument("system")
    p.add_argument("--battle", required=True)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--mode", default="game")
    p.add_argument("--side0", default="random")
    p.add_argument("--side1", default="random")
    p.add_argument("--max-actions", type=int, default=20000)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--results")
    p.add_argument("--summary")
    p.add_argument("--plot")
    p.add_argument("--progress", action="store_true", default=None)
    p.add_argument("--scheduler")
    p.add_argument("--explain", action="store_true")
    p.add_argument("-o", "--out")
    a = p.parse_args(argv)
    try:
        client = None
        if a.scheduler:
            try:
                from distributed import Client  # noqa: PLC0415
            except ImportError:
                raise _input_error("--scheduler", "Dask is not installed (Debian: apt-get install python3-distributed)") from None
            try:
                client = Client(a.scheduler, timeout="20s")
            except (OSError, TimeoutError, ValueError) as e:
                raise _input_error("--scheduler", f"cannot reach {a.scheduler}: {e}") from None
        game = _referee.load(a.system, a.battle)
        start = time.monotonic()
        lines = simulate_lines(game, a.games, a.seed, (a.side0, a.side1), a.mode, a.workers, client, a.progress,
                               None, a.max_actions)
        seconds = time.monotonic() - start
        if client is not None:
            client.close()
    except _referee.InputError as e:
        print(f"referee: error: {e}", file=sys.stderr)
        return 2
    summary = summarize(lines, game.players)
    summary.update({"system": a.system, "battle": a.battle, "mode": a.mode, "seed": a.seed,
                    "players": [a.side0, a.side1]})
    if a.results:
        write_results(lines, a.results)
    if a.plot:
        write_plot(summary, a.plot, f"{a.battle}: {a.side0} against {a.side1}")
    if a.summary:
        with open(a.summary, "w", encoding="utf-8") as f:
            f.write(_referee._dump_json(summary))
    answer = dict(summary, seconds=seconds, workers=a.scheduler)
    text = _summary_text(summary, a, seconds) if a.explain else _referee._dump_json(answer)
    if a.out and a.out != "-":
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0
