"""referee: a rules engine for tabletop wargames, from Python.

Every rule system of the engine's registry (``systems()``: Warmaster,
Commands & Colors: Ancients, Blightmeer) through one game interface, as
OpenSpiel's pyspiel does::

    import referee
    game = referee.load_bundled("warmaster", "default")   # or load(system, path), loads(system, text)
    state = game.new_initial_state()
    dice, rng = referee.Dice(seed=1), referee.Rng(seed=1)
    while not state.is_terminal():
        outcome = state.apply(state.sample_action(rng), dice)

Actions, states, results and query answers are the engine's JSON as dicts
and lists. A refused action raises ``IllegalAction`` (its ``rule_ids``) or,
with ``check=False``, returns the refused ``Outcome``; bad input raises
``InputError`` (a ``ValueError``) naming the field. The GIL is released in
long engine calls, so threads run games in parallel. ``simulate()`` plays
seeded games in bulk over worker processes or a Dask cluster
(``referee.simulation``).
"""

from ._referee import (  # noqa: F401
    Declaration,
    Dice,
    Figure,
    Game,
    IllegalAction,
    InputError,
    Match,
    Outcome,
    Rng,
    Roll,
    Ruling,
    ScriptError,
    SOURCE_DIR,
    State,
    bundled_battles,
    load,
    load_bundled,
    loads,
    replay,
    system_info,
    simulation_game_seed,
    systems,
    wilson_interval,
)
from .simulation import simulate, summarize, write_plot, write_results  # noqa: F401

__all__ = [
    "Declaration",
    "Dice",
    "Figure",
    "Game",
    "IllegalAction",
    "InputError",
    "Match",
    "Outcome",
    "Rng",
    "Roll",
    "Ruling",
    "ScriptError",
    "SOURCE_DIR",
    "State",
    "bundled_battles",
    "load",
    "load_bundled",
    "loads",
    "replay",
    "system_info",
    "simulate",
    "simulation_game_seed",
    "summarize",
    "systems",
    "wilson_interval",
    "write_plot",
    "write_results",
]
