"""referee.simulate(): seeded games in bulk over processes and a real Dask
cluster, the same bytes however the run is cut up."""

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

import referee
from referee.simulation import simulate_lines, write_results

from conftest import path

PITCHED = path("scenarios/warmaster/pitched-battle.json")
CLI = os.environ.get("REFEREE_CLI")


@pytest.fixture(scope="module")
def pitched():
    return referee.load("warmaster", PITCHED)


def first_order(state, rng):
    """A player that gives the first order it may, else ends the phase, else plays at random."""
    actions = state.legal_actions()
    for kind in ("order", "end_phase"):
        for a in actions:
            if a["type"] == kind:
                return a
    return state.sample_action(rng)


def test_one_and_four_workers_give_the_same_lines(pitched):
    one = simulate_lines(pitched, games=24, seed=3, players=("opponent", "random"), workers=1)
    four = simulate_lines(pitched, games=24, seed=3, players=("opponent", "random"), workers=4, chunk_size=5)
    assert one == four
    games = [json.loads(line) for line in one]
    assert [g["index"] for g in games] == list(range(24))
    assert [g["seed"] for g in games] == [referee.simulation_game_seed(3, i) for i in range(24)]
    assert len({g["seed"] for g in games}) == 24
    assert all(g["over"] and "refused" not in g for g in games)
    # The opponent beats the random player in most games (docs/warmaster-opponent.md).
    assert sum(g["winner"] == 0 for g in games) > 12


def test_lines_are_the_command_lines_bytes(pitched, tmp_path):
    if not CLI:
        pytest.skip("REFEREE_CLI (the referee binary) is set by ctest")
    lines = simulate_lines(pitched, games=10, seed=9, players=("random", "opponent"), workers=2)
    write_results(lines, tmp_path / "py.jsonl")
    subprocess.run([CLI, "warmaster", "simulate", "--battle", PITCHED, "--games", "10", "--seed", "9", "--side1",
                    "opponent", "--workers", "1", "--results", str(tmp_path / "cli.jsonl"), "-o",
                    str(tmp_path / "answer.json")], check=True)
    assert (tmp_path / "py.jsonl").read_bytes() == (tmp_path / "cli.jsonl").read_bytes()


def test_a_python_function_plays_a_side(pitched):
    # Phase mode: the Empire's first Command phase. first_order gives the
    # General's first order (9 or less on 2D6 at full Command), then ends the phase.
    lines = simulate_lines(pitched, games=40, seed=1, players=(first_order, "random"), mode="phase", workers=2)
    again = simulate_lines(pitched, games=40, seed=1, players=(first_order, "random"), mode="phase", workers=1)
    assert lines == again
    games = [json.loads(line) for line in lines]
    assert all(g["phase"].startswith("shooting") for g in games)
    assert all(g["by_type"].get("end_phase") == 1 for g in games)
    rolls = sum(g["passed"] + g["failed"] for g in games)
    assert rolls >= 40  # at least one order a phase, each passed or failed
    summary = referee.summarize(lines, pitched.players)
    assert summary["passed"] + summary["failed"] == rolls
    assert summary["passed"] > summary["failed"]  # most orders need 9 or less: 30/36


def test_bad_arguments_name_the_field(pitched):
    with pytest.raises(referee.InputError) as e:
        referee.simulate(pitched, games=2, players=("random", 3))
    assert e.value.field == "players[1]"
    with pytest.raises(referee.InputError) as e:
        referee.simulate(pitched, games=2, players=("random", "clever"))
    assert e.value.field == "players[1]"
    with pytest.raises(referee.InputError) as e:
        referee.simulate(pitched, games=2, mode="turn")
    assert e.value.field == "mode"
    with pytest.raises(referee.InputError) as e:
        referee.simulate(pitched, games=0)
    assert e.value.field == "games"
    with pytest.raises(referee.InputError) as e:
        referee.simulate(PITCHED, games=2)
    assert e.value.field == "system"
    with pytest.raises(referee.InputError) as e:
        referee.simulate(pitched, games=2, players=("random", lambda state, rng: None), workers=2)
    assert e.value.field == "players[1]"
    # In this process a lambda plays (None: no action, so each game stops at once, unfinished).
    stopped = referee.simulate(pitched, games=2, players=(lambda state, rng: None, "random"), workers=1)
    assert [g["actions"] for g in stopped] == [0, 0] and not any(g["over"] for g in stopped)
    blightmeer = referee.load_bundled("blightmeer", "ruin")  # a system without a built-in opponent
    with pytest.raises(referee.InputError) as e:
        referee.simulate(blightmeer, games=2, players=("opponent", "random"))
    assert e.value.field == "players[0]"


def test_summary_and_plot(pitched, tmp_path):
    results = referee.simulate(pitched, games=8, seed=2, players=("opponent", "opponent"), workers=2)
    summary = referee.summarize(results, pitched.players)
    assert summary["games"] == 8
    assert sum(s["wins"] for s in summary["sides"]) + summary["draws"] + summary["unfinished"] == 8
    for s in summary["sides"]:
        lo, hi = s["interval95"]
        assert lo <= s["win_rate"] <= hi
        assert (lo, hi) == pytest.approx(referee.wilson_interval(s["wins"], 8))
    png = tmp_path / "plot.png"
    wrote_png = referee.write_plot(summary, tmp_path / "plot.svg", "pitched battle", png=str(png))
    assert (tmp_path / "plot.svg").read_text().startswith("<svg")
    assert wrote_png == png.exists()


def dask_cluster(tmp_path):
    """A scheduler and two one-thread workers on loopback, as separate processes."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path[:1] + [os.path.dirname(os.path.dirname(
        referee.__file__))]))
    scheduler_file = tmp_path / "scheduler.json"
    common = ["--no-dashboard"]
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", "0", "--scheduler-file", str(scheduler_file)] + common,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    deadline = time.monotonic() + 60
    while not scheduler_file.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    for _ in range(2):
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file",
                                       str(scheduler_file), "--nthreads", "1", "--host", "127.0.0.1"] + common,
                                      env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    return procs, json.loads(scheduler_file.read_text())["address"]


def test_a_real_dask_cluster_gives_the_single_process_bytes(pitched, tmp_path):
    distributed = pytest.importorskip("distributed")
    cloudpickle = pytest.importorskip("cloudpickle")
    procs, address = dask_cluster(tmp_path)
    try:
        with distributed.Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=60)
            assert len(client.scheduler_info()["workers"]) == 2
            players = ("opponent", "random")
            local = simulate_lines(pitched, games=30, seed=11, players=players, workers=1)
            remote = simulate_lines(pitched, games=30, seed=11, players=players, client=client, chunk_size=4)
            assert remote == local
            # A Python function player travels to the workers by value.
            cloudpickle.register_pickle_by_value(sys.modules[__name__])
            try:
                phases = simulate_lines(pitched, games=12, seed=4, players=(first_order, "random"), mode="phase",
                                        client=client, chunk_size=3)
            finally:
                cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
            assert phases == simulate_lines(pitched, games=12, seed=4, players=(first_order, "random"),
                                            mode="phase", workers=1)
        if CLI:
            # referee warmaster simulate --scheduler: the same files as --workers 1.
            for name, extra in (("dask", ["--scheduler", address]), ("local", ["--workers", "1"])):
                subprocess.run([CLI, "warmaster", "simulate", "--battle", PITCHED, "--games", "20", "--seed", "5",
                                "--side0", "opponent", "--results", str(tmp_path / f"{name}.jsonl"), "--summary",
                                str(tmp_path / f"{name}.json"), "-o", str(tmp_path / f"{name}-answer.json")] + extra,
                               check=True)
            for ext in ("jsonl", "json"):
                assert (tmp_path / f"dask.{ext}").read_bytes() == (tmp_path / f"local.{ext}").read_bytes()
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
    assert all(p.returncode is not None for p in procs)


def test_scheduler_without_dask_or_unreachable_exits_2(tmp_path):
    if not CLI:
        pytest.skip("REFEREE_CLI (the referee binary) is set by ctest")
    if shutil.which("true") is None:
        pytest.skip("no true")
    # A closed port: the client gives up and the command exits 2 naming --scheduler.
    r = subprocess.run([CLI, "warmaster", "simulate", "--battle", PITCHED, "--games", "2", "--scheduler",
                        "tcp://127.0.0.1:9", "--results", str(tmp_path / "r.jsonl")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert "--scheduler" in r.stderr
    assert not (tmp_path / "r.jsonl").exists()
