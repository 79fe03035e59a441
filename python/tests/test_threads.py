"""Python threads run games in parallel: the engine's long calls release
the GIL, and games played in threads are the games played one by one."""

import sys
import threading

import referee


def play(game, seed, max_actions):
    state = game.new_initial_state()
    dice = referee.Dice(seed=seed)
    state.playout(referee.Rng(seed), dice, max_actions=max_actions)
    return state.to_json(), [r.value for r in dice.history]


def test_threads_give_the_games_played_alone():
    games = [referee.load_bundled(b["system"], b["name"]) for b in referee.bundled_battles()[:6]]
    jobs = [(g, seed) for g in games for seed in (1, 2)]
    alone = [play(g, seed, 400) for g, seed in jobs]
    together = [None] * len(jobs)

    def run(i):
        g, seed = jobs[i]
        together[i] = play(g, seed, 400)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert together == alone


def test_playout_releases_the_gil():
    """While one thread is inside a playout, another runs Python code.

    The switch interval is made longer than the test, so that without a
    release the thread in the playout would hold the GIL from before its call
    until it ends: the main thread would then never see it inside the call.
    The main thread waits on the event (without the GIL) between looks."""
    game = referee.load_bundled("warmaster", "default")
    started, finished = threading.Event(), threading.Event()

    def run():
        started.set()
        for seed in range(10):  # whole games, the built-in opponent on both sides
            game.new_initial_state().playout(referee.Rng(seed), referee.Dice(seed=seed), opponent_sides=[0, 1])
        finished.set()

    old = sys.getswitchinterval()
    sys.setswitchinterval(60)
    try:
        t = threading.Thread(target=run)
        t.start()
        started.wait()
        seen_inside = 0
        while not finished.wait(0.001):
            seen_inside += 1
        t.join()
    finally:
        sys.setswitchinterval(old)
    assert seen_inside > 0
