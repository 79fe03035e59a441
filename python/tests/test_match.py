"""Matches, logs and replay, dice, and the errors Python sees."""

import json
import os

import pytest

import referee
from conftest import actions_of, path

GOLDEN = "tests/games/golden"


def read(relative):
    with open(path(relative), encoding="utf-8") as f:
        return f.read()


# The golden playthroughs of tests/games/golden_playthrough_test.cpp, played
# from Python: (golden log, system, battle, actions, seed).
PLAYTHROUGHS = [
    ("warmaster-default", "warmaster", "scenarios/warmaster/default.json",
     "scenarios/warmaster/command-actions/default.json", 11, None),
    # The worked example plays the hand its battle lists (the bundled battles
    # deal at random otherwise: docs/rulings.md#ancients-deal).
    ("ancients-centre-clash", "ancients", "scenarios/ancients/centre_clash.json",
     "tests/ancients/data/golden_actions.json", 7, {"deal": "as_listed"}),
    ("blightmeer-town", "blightmeer", "scenarios/blightmeer/town.json",
     f"{GOLDEN}/blightmeer-town-actions.json", 5, None),
]


@pytest.mark.parametrize("golden,system,battle,actions,seed,settings", PLAYTHROUGHS, ids=[p[0] for p in PLAYTHROUGHS])
def test_match_gives_the_golden_log(golden, system, battle, actions, seed, settings):
    """A Match played from Python writes the log the C++ test checks, byte for byte."""
    game = referee.load(system, path(battle), settings or {})
    match = referee.Match(game, seed=seed)
    for a in actions_of(actions):
        match.play(a, check=False)
    want = [json.loads(line) for line in read(f"{GOLDEN}/{golden}.log").splitlines()]
    got = [json.loads(line) for line in match.log().splitlines()]
    assert got[1:] == want[1:]
    assert got[0]["battle"] == want[0]["battle"] and got[0]["seed"] == want[0]["seed"]


def test_replay_gives_the_same_state(tmp_path):
    game = referee.load_bundled("warmaster", "default")
    match = referee.Match(game, seed=21)
    rng = referee.Rng(21)
    for _ in range(60):
        if match.state.is_terminal():
            break
        match.play(match.state.sample_action(rng))
    log_file = tmp_path / "game.log"
    match.save(log_file)
    again = referee.replay(log_file.read_text(encoding="utf-8"), source=str(log_file))
    assert again.state == match.state
    assert again.position == match.position == 60
    assert again.entries() == match.entries()
    # A log whose rolls were changed does not replay, and says which line.
    lines = match.log().splitlines()
    for n, line in enumerate(lines[1:], start=2):
        entry = json.loads(line)
        if entry.get("rolls"):
            roll = entry["rolls"][0]
            roll["value"] = roll["value"] % roll.get("sides", 6) + 1
            lines[n - 1] = json.dumps(entry)
            break
    else:
        pytest.fail("no action rolled dice in 60 actions")
    with pytest.raises(referee.InputError) as e:
        referee.replay("\n".join(lines) + "\n", source="bad.log")
    assert f"line {n}" in str(e.value)


def test_undo_redo():
    match = referee.Match(referee.load_bundled("warmaster", "default"), seed=1)
    start = match.state
    rng = referee.Rng(1)
    match.play(match.state.sample_action(rng))
    after = match.state
    assert after != start and match.can_undo
    match.undo()
    assert match.state == start and match.can_redo
    match.redo()
    assert match.state == after
    with pytest.raises(referee.InputError):
        match.redo()


def test_illegal_action_carries_rule_ids():
    """blightmeer-town's sixth action is refused: the bandit carries treasure and cannot run."""
    actions = actions_of(f"{GOLDEN}/blightmeer-town-actions.json")
    match = referee.Match(referee.load("blightmeer", path("scenarios/blightmeer/town.json")), seed=5)
    for a in actions[:5]:
        assert match.play(a).applied
    before = match.state
    with pytest.raises(referee.IllegalAction) as e:
        match.play(actions[5])
    assert e.value.rule_ids == ["blightmeer.run.treasure"]
    assert e.value.rulings[0].reason == "bandit carries a Treasure token and cannot Run"
    assert not e.value.outcome.applied
    assert "blightmeer.run.treasure" in str(e.value)
    assert match.state == before
    # The refusal is in the log, as the C++ Match records it.
    assert match.entries()[-1]["refused"][0]["rule"] == "blightmeer.run.treasure"
    # check=False returns the refusal instead; State.apply the same.
    refused = match.play(actions[5], check=False)
    assert not refused and refused.rule_ids == ["blightmeer.run.treasure"]
    state = match.state
    with pytest.raises(referee.IllegalAction) as e2:
        state.apply(actions[5], referee.Dice(seed=1))
    assert e2.value.rule_ids == ["blightmeer.run.treasure"]
    assert state.apply(actions[5], referee.Dice(seed=1), check=False).rule_ids == ["blightmeer.run.treasure"]
    assert [r.rule for r in state.validate(actions[5])] == ["blightmeer.run.treasure"]
    assert state.is_legal(actions[5]) is False


def test_bad_file_names_the_field(tmp_path):
    battle = json.loads(read("scenarios/warmaster/default.json"))
    battle["armies"][0]["units"][0]["stands"][1]["x"] = "far"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(battle), encoding="utf-8")
    with pytest.raises(referee.InputError) as e:
        referee.load("warmaster", bad)
    assert isinstance(e.value, ValueError)
    assert e.value.field.startswith(str(bad))
    assert "armies[0].units[0].stands[1].x" in e.value.field
    assert e.value.problem
    # The same from text and from a dict, named by `source`.
    with pytest.raises(referee.InputError) as e:
        referee.loads("warmaster", json.dumps(battle), source="mine")
    assert e.value.field.startswith("mine") and "armies[0].units[0].stands[1].x" in e.value.field
    with pytest.raises(referee.InputError) as e:
        referee.loads("warmaster", battle)
    assert "armies[0].units[0].stands[1].x" in e.value.field
    # A file that is not JSON names its line.
    bad.write_text("{\n  \"armies\": [\n", encoding="utf-8")
    with pytest.raises(referee.InputError) as e:
        referee.load("warmaster", str(bad))
    assert "line" in str(e.value)
    with pytest.raises(referee.InputError) as e:
        referee.load("warmaster", os.path.join(str(tmp_path), "missing.json"))
    assert "missing.json" in str(e.value)


def test_bad_input_names_the_field():
    game = referee.load_bundled("warmaster", "default")
    state = game.new_initial_state()
    with pytest.raises(referee.InputError) as e:
        referee.load_bundled("chess")
    assert e.value.field == "system" and "warmaster" in e.value.problem
    with pytest.raises(referee.InputError) as e:
        referee.load_bundled("warmaster", "nowhere")
    with pytest.raises(referee.InputError) as e:
        state.apply({"type": "order", "character": "emp-general", "units": "emp-halberd-1"}, referee.Dice())
    assert e.value.field == "action.units"
    with pytest.raises(referee.InputError) as e:
        state.validate({"type": "nonsense"})
    assert e.value.field == "action.type"
    # An unknown character is not malformed: the rules refuse it, with a rule id.
    assert [r.rule for r in state.validate({"type": "order", "character": "nobody", "units": ["emp-halberd-1"]})] \
        == ["warmaster.command.unknown"]
    with pytest.raises(referee.InputError) as e:
        state.apply({"type": "order", "units": [object()]}, referee.Dice())
    assert e.value.field == "action.units[0]"
    with pytest.raises(referee.InputError) as e:
        state.query("no such query", {})
    assert e.value.field == "query"
    with pytest.raises(referee.InputError) as e:
        game.state_from_json({"turn": "x"})
    assert e.value.field == "state.turn"
    with pytest.raises(referee.InputError):
        referee.load_bundled("warmaster", "default", settings={"no_such_setting": 1})


def test_queries_answer(system):
    game = referee.load_bundled(system, referee.bundled_battles(system)[0]["name"])
    names = [q["name"] for q in game.queries()]
    assert names == [q["name"] for q in referee.system_info(system)["queries"]]
    assert names, f"{system} has no named queries"
    for q in game.queries():
        assert q["summary"]


def test_warmaster_order_chances():
    """An order's chances are the 2D6 throws at most what it needs, out of 36."""
    game = referee.load_bundled("warmaster", "default")
    state = game.new_initial_state()
    for order in [a for a in state.legal_actions() if a.get("type") == "order"][:4]:
        needed = state.clone().apply(order, referee.Dice(script=[1, 1])).result["needed"]
        ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= needed)
        chances = state.chance_outcomes(order)
        assert chances["kind"] == "outcomes"
        assert [o["chance"]["fraction"] for o in chances["outcomes"]] == [f"{ways}/36", f"{36 - ways}/36"]


def test_scripted_dice():
    game = referee.load_bundled("warmaster", "default")
    state = game.new_initial_state()
    order = next(a for a in state.legal_actions() if a.get("type") == "order")
    low = state.clone().apply(order, referee.Dice(script=[1, 1]))
    assert [r.value for r in low.rolls] == [1, 1]
    assert low.result["passed"] is True
    high = state.clone().apply(order, referee.Dice(script=[6, 6]))
    assert [r.value for r in high.rolls] == [6, 6] and high.result["passed"] is False
    with pytest.raises(referee.ScriptError):
        state.clone().apply(order, referee.Dice(script=[1]))
    dice = referee.Dice(script=[3, 4, 5])
    state.clone().apply(order, dice)
    assert dice.scripted_left == 1 and [r.value for r in dice.history] == [3, 4]
    # A Match with scripted dice records them and replays with its script.
    match = referee.Match(game, script=[2, 3, 6, 6])
    match.play(order)
    assert [r["value"] for r in match.entries()[0]["rolls"]] == [2, 3]
    assert referee.replay(match.log()).state == match.state


def test_seeded_games_are_the_same(system):
    game = referee.load_bundled(system, referee.bundled_battles(system)[0]["name"])

    def play(seed):
        s = game.new_initial_state()
        dice = referee.Dice(seed=seed)
        s.playout(referee.Rng(seed), dice, max_actions=300)
        return s.to_json(), [(r.sides, r.value) for r in dice.history]

    a, b, c = play(7), play(7), play(8)
    assert a == b
    assert a != c
    assert referee.Rng(9).next() == referee.Rng(9).next() != referee.Rng(10).next()


def test_warmaster_order_odds_query():
    """The default battle's General (Command 9) orders the western Halberdiers
    26.5 cm away: -1 for the distance over 20 cm, so 8 or less on 2D6, 26/36;
    the order's chance outcomes say the same."""
    state = referee.load_bundled("warmaster", "default").new_initial_state()
    odds = state.query("order_odds", {"character": "emp-general", "units": ["emp-halberd-1"]})
    assert odds["command"] == 9 and odds["needed"] == 8
    assert odds["distance"] == pytest.approx(26.5, abs=0.05)
    assert [p["rule"] for p in odds["penalties"]] == ["warmaster.command.distance"]
    assert odds["chance"]["fraction"] == "26/36"
    order = {"type": "order", "character": "emp-general", "units": ["emp-halberd-1"]}
    passed = state.chance_outcomes(order)["outcomes"][0]
    assert passed["chance"]["fraction"] == "26/36" and passed["label"].startswith("passed")


def test_each_player_sees_only_their_own_ancients_hand():
    """The information state: a player's view hides the other's hand and both decks' order."""
    game = referee.load_bundled("ancients", "centre_clash")
    assert game.information == "imperfect"
    state = game.new_initial_state(referee.Dice(seed=4))
    whole = state.to_json()
    for me in (0, 1):
        view = state.view(me)
        assert view["hands"][me] == whole["hands"][me]
        assert view["hands"][1 - me] is None
        assert view["decks"] == [None, None]
        assert view["hand_sizes"] == [len(h) for h in whole["hands"]]
        assert view["deck_sizes"] == [len(d) for d in whole["decks"]]
    assert state.view(-1)["hands"] == [None, None]
    with pytest.raises(referee.InputError, match="viewer"):
        state.view(2)
    # A draw is its drawer's.
    entry = {"seq": 1, "action": {"type": "end_movement"}, "rolls": [],
             "result": {"side": 0, "card": "order-one-left", "drew": "order-two-left", "next_side": 1}}
    assert game.entry_view(entry, 0)["result"]["drew"] == "order-two-left"
    assert game.entry_view(entry, 1)["result"]["drew"] is None


def test_the_bundled_ancients_battles_deal_with_the_dice():
    """A start with dice deals at random (docs/rulings.md#ancients-deal); without, as the file lists it."""
    game = referee.load_bundled("ancients", "centre_clash")
    listed = game.new_initial_state().to_json()["hands"]
    assert listed[0] == game.scenario["players"][0]["hand"]
    deals = {json.dumps(game.new_initial_state(referee.Dice(seed=s)).to_json()["hands"]) for s in range(1, 6)}
    assert len(deals) == 5
    assert referee.load_bundled("warmaster", "default").information == "perfect"
    warmaster = referee.load_bundled("warmaster", "default").new_initial_state()
    assert warmaster.view(1) == warmaster.to_json()
