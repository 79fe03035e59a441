// Blightmeer's rule catalogue. Texts quote or closely paraphrase the Move
// phase text and the game's published check, state and injury rules; where
// the engine relies on a reading, the entry cites it as
// docs/rulings.md#<anchor>.
#include "referee/blightmeer/rules.hpp"

namespace referee::blightmeer {

namespace {

constexpr RuleInfo kRules[] = {
    // --- Who may move --------------------------------------------------------
    {"blightmeer.move.incapacitated", "An Incapacitated unit is removed from the table",
     "an Incapacitated unit is asked to move"},
    {"blightmeer.move.engage_attempted",
     "\"Any unit may Move ... unless they: Attempted to Engage this turn\"", "the unit attempted to Engage this turn"},
    {"blightmeer.move.stunned", "\"Any unit may Move ... unless they: ... Are Stunned\"", "the unit is Stunned"},
    {"blightmeer.move.dazed", "\"Any unit may Move ... unless they: ... Are Dazed\"", "the unit is Dazed"},
    {"blightmeer.move.engaged",
     "\"Any unit may Move ... unless they: ... Are Engaged with an enemy unit that is not Stunned or Dazed\"",
     "the unit is Engaged with an enemy that is neither Stunned nor Dazed"},
    {"blightmeer.move.leave_melee",
     "\"If a unit is only Engaged with Stunned and Dazed enemy units, they may voluntarily leave the Melee and Move "
     "away\"",
     "a note: the unit is Engaged only with Stunned or Dazed enemies and may leave"},
    {"blightmeer.move.allowance",
     "\"Any unit may Move a number of inches according to their movement characteristic\"; Run is 1.5x Move, "
     "Staggered halves Move (rounded up), difficult terrain takes 2 in off once. Reading: "
     "docs/rulings.md#blightmeer-allowance",
     "the path costs more than the move's allowance"},
    {"blightmeer.run.treasure", "\"Units that can Move may instead Run, unless that unit is carrying a Treasure token\"",
     "a unit carrying Treasure runs"},
    {"blightmeer.run.after",
     "\"If a unit Runs, it may not Shoot in the same turn. If it can Cast spells, it will do so with a penalty\" (2 "
     "harder)",
     "a note on every run"},
    // --- Other units ---------------------------------------------------------
    {"blightmeer.units.enemy", "\"You may not Move or Engage through enemies, regardless of their state\"",
     "a walk passes through an enemy's base"},
    {"blightmeer.units.ally",
     "\"Your unit is able to Move or Engage through allies, assuming those allies they are not: Engaged, Stunned, "
     "Dazed\"",
     "a walk passes through an ally that is Engaged, Stunned or Dazed"},
    {"blightmeer.units.end_on_unit",
     "\"They may not end their Move in the same position as another ally, even if that unit is still able to Move\". "
     "Reading: docs/rulings.md#blightmeer-geometry",
     "the move ends with the unit's base overlapping another unit's"},
    {"blightmeer.units.occupied",
     "\"A unit must end its movement in a place where it can be placed\": a climb, ladder or jump lands where the unit "
     "can stand. Reading: docs/rulings.md#blightmeer-geometry",
     "a climb, ladder or jump step that is not the last lands on another unit"},
    // --- Terrain -----------------------------------------------------------
    {"blightmeer.walk.level",
     "A unit may \"Climb, Jump, or Jump Down as part of their Move\": a walk stays on one level. Reading: "
     "docs/rulings.md#blightmeer-geometry",
     "a walk step crosses a higher or lower level"},
    {"blightmeer.terrain.impassable",
     "\"These things cannot be moved through or over and as such cannot be climbed\". Reading: "
     "docs/rulings.md#blightmeer-impassable-regions",
     "a step crosses or climbs impassable terrain"},
    {"blightmeer.table.edge", "A unit stays on the table", "a step leaves the table"},
    {"blightmeer.terrain.difficult",
     "\"If a unit moves through difficult terrain at any point during their turn, their total speed is reduced by 2\". "
     "The amount of difficult terrain moved through does not matter\". Reading: "
     "docs/rulings.md#blightmeer-difficult-terrain-crossed",
     "a note when the move crosses difficult terrain (not water)"},
    {"blightmeer.terrain.low",
     "\"When Moving through any terrain that is up to 1\" high may be freely moved over with no penalty\"",
     "a note when the move crosses low terrain"},
    // --- Climbing ------------------------------------------------------------
    {"blightmeer.climb.check",
     "\"To climb up or down a vertical surface as part of your movement make an Agility Check\"; on a failure \"put "
     "the unit next to the vertical surface where they started their climb and end their Move\". Reading: "
     "docs/rulings.md#blightmeer-which-checks-a-climb-needs",
     "every climb step needs one Agility check"},
    {"blightmeer.climb.partway", "\"A unit must end its movement in a place where it can be placed, it cannot be "
                                 "halfway up a wall\"",
     "a climb ends at a height that is not the level there"},
    {"blightmeer.climb.no_height", "A climb goes up or down a vertical surface",
     "a climb step ends on the level it started from"},
    {"blightmeer.climb.leeway",
     "\"1\" of horizontal movement is allowed, but more is also okay if it's in the spirit of the climb movement and "
     "everyone agrees\" (setting climb_leeway). Reading: docs/rulings.md#blightmeer-climb-leeway",
     "a climb step moves further horizontally than the leeway"},
    {"blightmeer.climb.not_climbable", "A climb goes up a side that can be climbed",
     "a climb step goes up a side marked not climbable"},
    {"blightmeer.climb.unreachable",
     "\"A unit cannot attempt to climb if it cannot reach the position it is climbing to in this turn\". Reading: "
     "docs/rulings.md#blightmeer-climb-unreachable",
     "what is spent before a climb plus the climb is more than the allowance"},
    {"blightmeer.climb.placement",
     "A failed climb puts the unit at the foot; if that is on an ally, it is placed next to the ally as a falling unit "
     "would be. Reading: docs/rulings.md#blightmeer-failed-climb-beside-ally",
     "a failed climb's foot is on another unit"},
    // --- Ladders -----------------------------------------------------------
    {"blightmeer.ladder.end", "\"A unit may not end its movement halfway up a ladder\"",
     "a ladder step ends partway up the ladder"},
    {"blightmeer.ladder.animal",
     "\"Animals may not freely use ladders (but may make a Climb Check to climb them)\". Reading: "
     "docs/rulings.md#blightmeer-ladders",
     "an animal uses a ladder: it needs a climb check"},
    // --- Jumping -------------------------------------------------------------
    {"blightmeer.jump_down.landing", "\"Place the unit on the ground within 3\" of where it is Jumping Down from\"",
     "a jump down lands at a height that is not the level there"},
    {"blightmeer.jump_down.not_lower", "A unit may \"Jump Down from a higher point\". Reading: "
                                       "docs/rulings.md#blightmeer-jump-down",
     "the landing is not lower than the take-off"},
    {"blightmeer.jump_down.range",
     "\"Place the unit on the ground within 3\" of where it is Jumping Down from\" (setting jump_down_range). Reading: "
     "docs/rulings.md#blightmeer-jump-down",
     "the landing is further than the range from the take-off, seen from above"},
    {"blightmeer.jump_down.over_higher",
     "\"This allows units to Jump over other units or terrain, assuming they are not higher than the unit that is "
     "Jumping Down\"",
     "a jump down passes over terrain higher than the take-off"},
    {"blightmeer.jump_down.check",
     "\"An Agility Check must be made to see whether the unit safely landed. If the distance being jumped is 4\" or "
     "more vertically, the unit makes the Agility Check with Disadvantage\"; a failure Falls where it landed (setting "
     "disadvantage_drop). Reading: docs/rulings.md#blightmeer-jump-down",
     "every jump down needs an Agility check"},
    {"blightmeer.jump_across.landing", "A jump across lands where the unit can stand",
     "a jump across lands at a height that is not the level there"},
    {"blightmeer.jump_across.over_higher", "A jump across passes over nothing higher than both its ends. Reading: "
                                           "docs/rulings.md#blightmeer-jump-across",
     "a jump across passes through terrain higher than both its ends"},
    {"blightmeer.jump_across.short",
     "\"No Jump Across check needs to be made to jump distances 1\" or less\" (setting free_jump_gap)",
     "a note when a jump across is short enough to need no check"},
    {"blightmeer.jump_across.check",
     "\"For gaps larger than 1\", such as between two buildings, a Check must be made\"; on a failure \"it Falls to the "
     "ground below from where it attempted to Jump Across\". Reading: docs/rulings.md#blightmeer-jump-across",
     "every jump across longer than the free gap needs an Agility check"},
    {"blightmeer.jump_across.automatic_failure",
     "\"If the distance between the start and end position is longer than 3\", or the end position is more than 1\" "
     "above the start position, the unit automatically fails the Jump Across and Falls\" (a unit's trait may raise the "
     "reach). Reading: docs/rulings.md#blightmeer-jump-across",
     "a jump across is longer than the unit's reach, or lands more than 1 in higher"},
    // --- Falling -------------------------------------------------------------
    {"blightmeer.fall.start", "\"When falling, place the unit at the spot it has fallen to\"",
     "a failed jump makes the unit fall"},
    {"blightmeer.fall.placement",
     "\"If this spot would place it on top of another unit, instead place it so that it is next to (but not Engaged) "
     "with the unit. Determine a random direction if the place it would drop to is ambiguous\". Reading: "
     "docs/rulings.md#blightmeer-falling-onto-a-unit",
     "a falling unit lands on another unit and is moved next to it"},
    {"blightmeer.fall.injury",
     "\"Make an Injury Roll. For every extra full inch above 2\" that the unit falls from, add +2 to the Injury Roll\"; "
     "1-11 no effect, 12-14 Dazed, 15-17 Stunned, 18+ Incapacitated. Reading: "
     "docs/rulings.md#blightmeer-injury-roll-for-falls",
     "every fall rolls an Injury Roll"},
    {"blightmeer.fall.wounds",
     "\"If they would be Incapacitated when they have more than 1 Wound remaining, they are instead Stunned and lose a "
     "Wound\"",
     "a fall's Injury Roll would Incapacitate a unit with more than 1 Wound"},
    // --- Water -------------------------------------------------------------
    {"blightmeer.water.difficult", "\"Water counts as Difficult Terrain\". Reading: docs/rulings.md#blightmeer-allowance",
     "a note when the move crosses water"},
    {"blightmeer.water.cover", "\"The unit receives Cover for being in water\"", "a note when the move ends in water"},
    {"blightmeer.water.deep", "In deep water \"units cannot make Ranged Attacks or Cast Spells\"",
     "a note when the move ends in deep water"},
    {"blightmeer.water.deep_armour",
     "\"Units that enter deep water with Light or Heavy Armour are immediately Incapacitated\" (setting mithril_sinks "
     "for mithril). Reading: docs/rulings.md#blightmeer-mithril-in-deep-water",
     "a unit in armour that sinks enters deep water"},
    {"blightmeer.water.incapacitated",
     "\"If a unit is Dazed or Stunned while in water, they are instead immediately Incapacitated\"",
     "a fall leaves a unit Dazed or Stunned in water"},
    // --- Turns and the game (the game layer, game.hpp) -----------------------
    {"blightmeer.turn.not_your_turn",
     "\"Players alternate turns\": a unit moves only in its own side's turn. Reading: "
     "docs/rulings.md#blightmeer-turn-order",
     "a move by a unit of the side not to play"},
    {"blightmeer.move.once_per_turn",
     "\"Any unit may Move a number of inches ... within the Movement phase\": one move a unit a turn. Reading: "
     "docs/rulings.md#blightmeer-once-per-turn",
     "a second move of a unit in the same turn"},
    {"blightmeer.move.unknown_unit", "A move names a unit on the battlefield",
     "validate() is asked about a unit the state does not hold (the action parser refuses it first)"},
    {"blightmeer.path.disconnected",
     "A move starts where the unit stands, and a ladder is climbed from its foot or top. Reading: "
     "docs/rulings.md#blightmeer-path-disconnected",
     "in a game, a step whose from is not where the unit is, or a ladder the unit is not at"},
    {"blightmeer.game.over",
     "The Move-phase text gives no victory condition: a game lasts turn_limit rounds, or until a side has no "
     "unit standing. Reading: docs/rulings.md#blightmeer-game-end",
     "any action once the game is over"},
    {"blightmeer.state.staggered", "Staggered \"clears at the end of the unit's own turn\". Reading: "
     "docs/rulings.md#blightmeer-turn-end",
     "an event at the end of a side's turn, for each of its Staggered units"},
    {"blightmeer.state.dazed", "A Dazed unit \"becomes Staggered at its next Upkeep\". Reading: "
     "docs/rulings.md#blightmeer-upkeep",
     "an event when a side's turn begins, for each of its Dazed units"},
    {"blightmeer.state.stunned", "A Stunned unit \"becomes Dazed at its next Upkeep\". Reading: "
     "docs/rulings.md#blightmeer-upkeep",
     "an event when a side's turn begins, for each of its Stunned units"},
};

}  // namespace

std::span<const RuleInfo> rule_catalogue() { return kRules; }

}  // namespace referee::blightmeer
