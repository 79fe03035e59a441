"""OpenSpiel's RandomSimTest from Python, for every registered system and
each of its bundled battles: random legal play, checking after each action
what the game interface promises (core/game.hpp), then the log replayed."""

import copy

import pytest

import referee

MAX_ACTIONS = 150  # per battle with every check; a playout to the end follows in C++


def check_chances(chances):
    assert chances["kind"] in ("no dice", "outcomes", "not enumerable")
    if chances["kind"] == "outcomes":
        assert chances["outcomes"]
        total = 0
        for o in chances["outcomes"]:
            fraction = o["chance"]["fraction"]
            successes, outcomes = (int(x) for x in fraction.split("/"))
            assert 0 <= successes <= outcomes
            total += successes / outcomes
        assert total == pytest.approx(1.0, abs=1e-12)
    if chances["kind"] == "not enumerable":
        assert chances["why"]


def test_systems_are_the_registry():
    assert {"warmaster", "ancients", "blightmeer"} <= set(referee.systems())
    assert {b["system"] for b in referee.bundled_battles()} == set(referee.systems())
    for name in referee.systems():
        info = referee.system_info(name)
        assert info["name"] == name and info["title"] and info["battles"]
        assert all(b["system"] == name for b in referee.bundled_battles(name))


def test_random_game(battle):
    game = referee.load_bundled(battle["system"], battle["name"])
    assert game.system == battle["system"]
    assert len(game.players) == 2
    known = {r["id"] for r in game.rules()}
    assert known
    match = referee.Match(game, seed=3)
    rng = referee.Rng(11)
    refusals = 0
    for i in range(MAX_ACTIONS):
        s = match.state
        if s.is_terminal():
            assert s.current_player() == -1
            assert s.result()["over"] is True
            assert s.sample_action(rng) is None
            break
        assert s.current_player() in (0, 1)
        before = s.to_json()

        legal = s.legal_actions()
        for a in legal[:6]:
            assert s.validate(a) == [], f"action {i}: listed legal action {a} refused"
        a = s.sample_action(rng)
        assert a is not None, f"action {i}: not over but nothing to sample"
        assert s.is_legal(a)
        check_chances(s.chance_outcomes(a))
        assert s.to_json() == before, "validate or chance_outcomes changed the state"

        clone = s.clone()
        outcome = match.play(a)
        assert outcome.applied and outcome.rulings == [] and outcome.rule_ids == []
        assert clone.to_json() == before, "playing changed a clone"
        after = match.state
        if i % 10 == 0:
            assert game.state_from_json(after.to_json()) == after

        # The same action again is often refused now: the rule ids are the
        # catalogue's, and the refusal rolls nothing and changes nothing.
        again = after.validate(a)
        if again:
            refusals += 1
            assert {r.rule for r in again} <= known
            assert all(r.reason for r in again)
            probe, dice = after.clone(), referee.Dice(seed=1)
            refused = probe.apply(a, dice, check=False)
            assert not refused.applied and refused.rolls == [] and dice.history == []
            assert refused.rule_ids == [r.rule for r in again]
            assert probe == after
            with pytest.raises(referee.IllegalAction) as e:
                probe.apply(a, dice)
            assert e.value.rule_ids == refused.rule_ids
    # The log replays to the same state.
    replayed = referee.replay(match.log(), source=battle["name"])
    assert replayed.state == match.state
    assert replayed.log() == match.log()

    # On to the end (or a cap) in C++, random legal actions on both sides.
    state = match.state
    n = state.playout(referee.Rng(5), referee.Dice(seed=5), max_actions=5000)
    assert n > 0 or state.is_terminal()
    if state.is_terminal():
        assert state.current_player() == -1
        result = state.result()
        assert result["over"] and result["reason"]
        assert result["winner"] in (None, 0, 1)


def test_clone_is_independent(battle):
    game = referee.load_bundled(battle["system"], battle["name"])
    s = game.new_initial_state()
    start = s.to_json()
    copies = [s.clone(), copy.copy(s), copy.deepcopy(s)]
    rng, dice = referee.Rng(2), referee.Dice(seed=2)
    for c in copies:
        c.playout(rng, dice, max_actions=20)
        assert c != s
    assert s.to_json() == start
    # and the other way: the original moves on, the copy stays.
    c = s.clone()
    s.apply(s.sample_action(rng), dice)
    assert c.to_json() == start


@pytest.mark.parametrize("system", referee.systems())
def test_opponent_plays_legal_actions(system):
    game = referee.load_bundled(system, referee.bundled_battles(system)[0]["name"])
    state = game.new_initial_state()
    if not game.has_opponent:
        with pytest.raises(referee.InputError):
            state.opponent_action(referee.Rng(1))
        return
    rng, dice = referee.Rng(4), referee.Dice(seed=4)
    for _ in range(30):
        if state.is_terminal():
            break
        a = state.opponent_action(rng)
        assert state.validate(a) == []
        state.apply(a, dice)
    n = state.playout(rng, dice, max_actions=40, opponent_sides=[0, 1])
    assert 0 <= n <= 40


def test_an_order_as_an_explicit_chance_step():
    """The General's first order to the Halberdiers in the pitched battle
    needs 8 or less on 2D6: declared, it is 36 sequences of two faces of
    1/36 each, 26 of them passing, and resolving with one is applying with
    dice that rolled those faces."""
    game = referee.load_bundled("warmaster", "pitched-battle")
    start = game.new_initial_state()
    order = {"type": "order", "character": "emp-general", "units": ["emp-halberd-1"]}
    declared = start.declare(order)
    assert declared.kind == "outcomes" and not declared.refused
    assert len(declared.outcomes) == 36
    assert all((s, n) == (1, 36) for _, s, n in declared.outcomes)
    passing = [k for k, (rolls, _, _) in enumerate(declared.outcomes) if sum(r.value for r in rolls) <= 8]
    assert len(passing) == 26
    after, outcome = start.resolve(declared, passing[0])
    assert outcome.result["passed"] is True
    assert start.to_json() != after.to_json()
    dice = referee.Dice(script=[r.value for r in declared.outcomes[passing[0]][0]])
    applied = start.clone()
    applied.apply(order, dice)
    assert applied.to_json() == after.to_json()
    assert declared.sample(referee.Rng(3)) in range(36)
    with pytest.raises(referee.InputError):
        start.resolve(declared, 36)
