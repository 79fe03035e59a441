"""Type stubs for referee (the module is built from python/referee_py.cpp)."""

import os
from typing import Any, Callable, Optional, Sequence, Union

JsonValue = Union[None, bool, int, float, str, list[Any], dict[str, Any]]
Action = dict[str, Any]

SOURCE_DIR: str
"""The source tree the module was built from (bundled battles' files are under it)."""

class InputError(ValueError):
    """Bad input: a battle, action, state, log or argument that cannot be used."""

    field: str
    """The path of what is wrong: "armies[0].units[2].stands[1].x", after the file's name where there is one."""
    problem: str
    """What is wrong with it."""

class IllegalAction(Exception):
    """An action the rules forbid (raised unless check=False); the state is unchanged."""

    rule_ids: list[str]
    rulings: list[Ruling]
    outcome: Outcome

class ScriptError(RuntimeError):
    """Scripted dice ran out, or a scripted value does not fit the die asked for."""

class Figure:
    """A measured figure of a ruling."""

    @property
    def name(self) -> str: ...
    @property
    def value(self) -> float: ...
    @property
    def unit(self) -> str: ...

class Ruling:
    """Which rule decided, why, and the measured figures."""

    @property
    def rule(self) -> str:
        """The rule id, "warmaster.movement.gap"."""
    @property
    def reason(self) -> str: ...
    @property
    def figures(self) -> list[Figure]: ...
    def to_dict(self) -> dict[str, Any]:
        """The ruling as the engine's JSON."""

class Roll:
    """One die rolled."""

    @property
    def sides(self) -> int: ...
    @property
    def value(self) -> int: ...
    @property
    def purpose(self) -> str: ...

class Outcome:
    """What applying an action did."""

    @property
    def applied(self) -> bool:
        """True when applied; False when refused."""
    @property
    def rulings(self) -> list[Ruling]:
        """Why it was refused; empty when applied."""
    @property
    def rule_ids(self) -> list[str]: ...
    @property
    def rolls(self) -> list[Roll]: ...
    @property
    def result(self) -> JsonValue:
        """What happened (None when refused, or with describe=False)."""
    def __bool__(self) -> bool: ...

class Declaration:
    """An action declared as an explicit chance step (State.declare): every outcome of its dice, exactly."""

    @property
    def action(self) -> Action: ...
    @property
    def kind(self) -> str:
        """"no dice", "outcomes" or "not enumerable"."""
    @property
    def refused(self) -> bool: ...
    @property
    def rulings(self) -> list[Ruling]: ...
    @property
    def why(self) -> str: ...
    @property
    def outcomes(self) -> list[tuple[list[Roll], int, int]]:
        """(rolls, successes, outcomes) for each: its chance is successes / outcomes, summing to one."""
    def sample(self, rng: Rng) -> int: ...

class Rng:
    """The engine's own generator (xoshiro256**): the same seed, the same numbers everywhere."""

    def __init__(self, seed: int = 0) -> None: ...
    def next(self) -> int: ...
    def below(self, bound: int) -> int:
        """A whole number in [0, bound)."""
    def __copy__(self) -> Rng: ...
    def __deepcopy__(self, memo: Any) -> Rng: ...

class Dice:
    """Seeded or scripted dice, recorded as they roll."""

    def __init__(self, seed: int = 0, script: Optional[Sequence[int]] = None) -> None: ...
    @property
    def seed(self) -> int: ...
    @property
    def script(self) -> Optional[list[int]]: ...
    @property
    def scripted_left(self) -> int: ...
    @property
    def history(self) -> list[Roll]: ...
    def roll(self, sides: int = 6, purpose: str = "") -> int: ...

class Game:
    """A system's game made from a battle; immutable and shared by states and threads."""

    @property
    def system(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def players(self) -> list[str]: ...
    @property
    def scenario(self) -> dict[str, Any]: ...
    @property
    def settings(self) -> dict[str, Any]: ...
    @property
    def source(self) -> str: ...
    @property
    def has_opponent(self) -> bool: ...
    def new_initial_state(self, dice: Optional[Dice] = None) -> State:
        """The start as listed; with dice, as a game begins it (a random deal rolls through them)."""
    @property
    def information(self) -> str:
        """"perfect" or "imperfect" (a player sees part of the state: State.view)."""
    def entry_view(self, entry: dict[str, Any], viewer: int) -> dict[str, Any]:
        """One log entry as `viewer` (a player, or -1 for a spectator) may read it."""
    def state_from_json(self, state: dict[str, Any]) -> State:
        """Resumes a saved state (State.to_json()); InputError naming the field when it is wrong."""
    def queries(self) -> list[dict[str, Any]]:
        """The named queries: a list of {name, summary, args}."""
    def rules(self) -> list[dict[str, str]]:
        """Every rule id the system can cite: a list of {id, text, fires}."""

class State:
    """A position in a game; cloned cheaply and independently; changed only by apply()."""

    @property
    def game(self) -> Game: ...
    def clone(self) -> State: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: Any) -> State: ...
    def to_json(self) -> dict[str, Any]: ...
    def view(self, viewer: int) -> dict[str, Any]:
        """The state as `viewer` (a player, or -1 for a spectator) may know it; for showing, not resuming."""
    def __eq__(self, other: object) -> bool: ...
    def current_player(self) -> int:
        """0 or 1; -1 once the game is over."""
    def turn(self) -> int: ...
    def phase(self) -> str: ...
    def is_terminal(self) -> bool: ...
    def result(self) -> dict[str, Any]:
        """{"over": bool, "winner": int or None, "reason": str}."""
    def validate(self, action: Action) -> list[Ruling]:
        """The rulings that forbid the action now; empty when legal."""
    def is_legal(self, action: Action) -> bool: ...
    def apply(self, action: Action, dice: Dice, *, check: bool = True, describe: bool = True) -> Outcome:
        """Validates and applies; IllegalAction when refused, or the refused Outcome with check=False."""
    def legal_actions(self) -> list[Action]: ...
    def sample_action(self, rng: Rng) -> Optional[Action]: ...
    def chance_outcomes(self, action: Action) -> dict[str, Any]: ...
    def declare(self, action: Action, max_outcomes: int = 4096) -> Declaration: ...
    def resolve(self, declaration: Declaration, k: int) -> tuple[State, Outcome]:
        """The declared action applied with outcome k: (new State, Outcome); this state is unchanged."""
    def query(self, name: str, args: Optional[dict[str, Any]] = None) -> JsonValue: ...
    def opponent_action(self, rng: Rng) -> Optional[Action]: ...
    def playout(
        self, rng: Rng, dice: Dice, max_actions: int = 100000, opponent_sides: Sequence[int] = ()
    ) -> int:
        """Plays on in C++ without the GIL; returns the number of actions applied."""

class Match:
    """A game being played, with its log, undo and redo."""

    def __init__(self, game: Game, seed: int = 0, script: Optional[Sequence[int]] = None) -> None: ...
    @property
    def game(self) -> Game: ...
    @property
    def state(self) -> State:
        """A copy of the current state."""
    def play(self, action: Action, *, check: bool = True) -> Outcome: ...
    def undo(self) -> None: ...
    def redo(self) -> None: ...
    @property
    def can_undo(self) -> bool: ...
    @property
    def can_redo(self) -> bool: ...
    @property
    def position(self) -> int: ...
    def log(self) -> str:
        """The log as JSON Lines text."""
    def entries(self) -> list[dict[str, Any]]: ...
    def save(self, path: Union[str, os.PathLike[str]]) -> None: ...

def systems() -> list[str]: ...
def system_info(system: str) -> dict[str, Any]: ...
def bundled_battles(system: Optional[str] = None) -> list[dict[str, Any]]: ...
def load(system: str, path: Union[str, os.PathLike[str]], settings: Optional[dict[str, Any]] = None) -> Game: ...
def loads(
    system: str, scenario: Union[str, dict[str, Any]], settings: Optional[dict[str, Any]] = None, source: str = "scenario"
) -> Game: ...
def load_bundled(system: str, name: str = "default", settings: Optional[dict[str, Any]] = None) -> Game: ...
def replay(log: str, source: str = "log", script: Optional[Sequence[int]] = None) -> Match: ...
def simulation_game_seed(master: int, index: int) -> int:
    """The seed game `index` of a run from master seed `master` plays with (its dict's "seed"; `referee <system> arena --seed` that number --games 1 replays it). Runs from different master seeds share no game."""
def wilson_interval(successes: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval (low, high) of `successes` out of `n`."""

Player = Union[str, Callable[[State, Rng], Optional[Action]]]

def simulate(
    battle: Union[Game, str, os.PathLike[str]],
    games: int = 100,
    seed: int = 1,
    players: Sequence[Player] = ("random", "random"),
    mode: str = "game",
    workers: Optional[int] = None,
    client: Any = None,
    progress: Optional[bool] = None,
    chunk_size: Optional[int] = None,
    max_actions: int = 20000,
    system: Optional[str] = None,
    settings: Optional[dict[str, Any]] = None,
) -> list[dict[str, Any]]:
    """Plays seeded games (game i with simulation_game_seed(seed, i)) over processes or a Dask client; one dict a game."""
def summarize(results: Sequence[Union[str, dict[str, Any]]], names: Sequence[str] = ("side 0", "side 1")) -> dict[str, Any]:
    """Wins per side with 95% Wilson intervals, draws, unfinished, means and rolls."""
def write_results(lines: Sequence[str], path: Union[str, os.PathLike[str]]) -> None: ...
def write_plot(
    summary: dict[str, Any], path: Union[str, os.PathLike[str]], title: str = "", png: Optional[str] = None
) -> bool: ...

__all__: list[str]
