// Commands & Colors: Ancients' rule catalogue. Texts quote or closely
// paraphrase the unit-movement text and the published command-card rules;
// where the engine relies on a reading, the entry cites it as
// docs/rulings.md#<anchor>.
#include "referee/ancients/rules.hpp"

namespace referee::ancients {

namespace {

constexpr RuleInfo kRules[] = {
    // --- Turn sequence and orders ------------------------------------------
    {"ancients.order.sequence",
     "A turn starts with one card played from the hand; \"after playing a Command card, announce which ... you choose "
     "to order\", then move. Reading: docs/rulings.md#ancients-orders-before-moves",
     "a second card is played, an order comes before a card or after a piece has moved, a move comes before any "
     "order, or the movement ends with no card played"},
    {"ancients.order.side", "A player orders and moves only his own units and leaders",
     "an order or move names a piece of the side not playing"},
    {"ancients.order.not_ordered",
     "Only ordered units move; \"a leader that is ordered does not have to move (unless attached to an ordered unit "
     "that is moved)\"",
     "a move names a unit not ordered this turn, or a leader not ordered on his own"},
    {"ancients.order.once",
     "\"A unit may only be ordered to move once per turn\"; \"a leader may only be ordered to move once per turn\"",
     "a piece is ordered twice, or a unit or leader moves a second time"},
    // --- Command cards -----------------------------------------------------
    {"ancients.card.not_in_hand", "A turn starts with one card played from the hand",
     "the card played is not in the side's hand"},
    {"ancients.card.section",
     "A section card orders a set number of units (and leaders) in the section or sections it shows; a hex cut by a "
     "section line belongs to both sections. Reading: docs/rulings.md#ancients-board-and-sections",
     "the card's plan (which sections, how many); refuses orders that cannot be shared among the card's sections"},
    {"ancients.card.troop",
     "A troop card orders units of its kind anywhere; the number \"equals the player's command, which is the cards "
     "held, counting the one being played\"; with none of that kind, one unit of the player's choice. Readings: "
     "docs/rulings.md#ancients-command, docs/rulings.md#ancients-troop-cards",
     "the card's plan for a troop card"},
    {"ancients.card.leadership",
     "A Leadership card orders through a leader: one leader, his unit and linked units in a chain of adjacent hexes; "
     "\"a leader may not detach from a unit when a 'Leadership' Command card is played\". Reading: "
     "docs/rulings.md#ancients-leadership",
     "the card's plan; refuses orders through other than exactly one leader, or units not linked to him"},
    {"ancients.card.spartacus",
     "I am Spartacus orders up to the player's command leaders, or units with attached leaders; leaders may detach. "
     "Reading: docs/rulings.md#ancients-i-am-spartacus",
     "the card's plan for I am Spartacus"},
    {"ancients.card.count", "A card orders the number of pieces it states (troop cards: the player's command)",
     "more pieces are ordered than the card allows, or more linked units than a Leadership card allows"},
    {"ancients.card.eligible", "A card orders only the pieces it names: its sections, its kind of troop, its leaders",
     "an ordered unit or leader is not one the card may order"},
    {"ancients.card.orders_nothing",
     "\"If the card played can order no unit, the turn skips straight to drawing\". Reading: "
     "docs/rulings.md#ancients-cards-that-order-nothing",
     "the card played can order no unit or leader (the answer's turn_skipped)"},
    {"ancients.card.reshuffle",
     "After a turn the player draws a command card; when the draw deck is exhausted, the discards are shuffled to "
     "form a new draw deck (unless the scenario sets exhausted_deck \"no_reshuffle\"). Reading: "
     "docs/rulings.md#ancients-reshuffle",
     "never refused: a draw that finds the deck empty (the answer's reshuffled)"},
    // --- Unit movement ------------------------------------------------------
    {"ancients.movement.off_board",
     "\"An ordered unit may never move off the sides of a battlefield unless scenario special rules offer that "
     "option\"",
     "a unit's destination is not a hex of the board"},
    {"ancients.movement.allowance",
     "Each class moves its allowance (light infantry 2, medium and heavy infantry 1, auxilia 2, warriors 1, or 2 \"if "
     "moving adjacent to an enemy unit or adjacent to an enemy leader\", light cavalry 4, medium cavalry 3, heavy "
     "cavalry 2, ...). Reading: docs/rulings.md#ancients-staying-put",
     "a unit's destination is beyond its allowance, is its own hex, or is a warrior's 2-hex move not ending adjacent to "
     "an enemy; also names the `destinations` answer for a unit"},
    {"ancients.movement.blocked",
     "\"Two units may not occupy the same hex. When moving a unit, you may not move onto or through a hex occupied by "
     "an enemy unit, an enemy leader, or a friendly unit\"; light foot may pass friends under Order Light Troops and "
     "Move-Fire-Move. Reading: docs/rulings.md#ancients-light-foot-pass-through",
     "the destination holds a unit or an enemy leader, or every route in reach passes through one"},
    {"ancients.movement.terrain",
     "\"Some terrain features affect movement and may prevent a unit from moving its full allowance\": forest and "
     "marsh stop, marsh lets a unit leave by 1 hex, war machines cannot enter broken ground or marsh, rivers are "
     "impassable except at fords and bridges. Readings: docs/rulings.md#ancients-terrain, "
     "docs/rulings.md#ancients-lone-leaders-and-terrain",
     "a piece's destination is terrain it cannot enter, a unit leaving marsh goes further than 1 hex, or terrain "
     "stops or bars every route in reach"},
    // --- Leaders ------------------------------------------------------------
    {"ancients.leader.allowance",
     "\"A leader may move one, two, or three hexes when moving alone\". Reading: docs/rulings.md#ancients-staying-put",
     "a lone leader's destination is more than 3 hexes away or his own hex; also names the `destinations` answer for "
     "a leader"},
    {"ancients.leader.blocked",
     "\"A leader may not move onto or through a hex occupied by an enemy unit or enemy leader except to attempt "
     "escape\"",
     "a leader's destination holds an enemy, or every route in reach passes through one"},
    {"ancients.leader.one_per_hex",
     "\"Only one leader may occupy a hex\"; a lone leader \"cannot end movement in a hex already occupied by another "
     "friendly leader\". Reading: docs/rulings.md#ancients-one-leader-per-hex",
     "a leader would end on another leader, or a unit carrying a leader would enter a lone friendly leader's hex"},
    {"ancients.leader.off_board",
     "\"A leader may never move off the short sides of a battlefield or the long sides ... Exception: Leader Evade and "
     "Escape\". Reading: docs/rulings.md#ancients-leaving-the-board",
     "a leader's destination is not a hex of the board"},
    {"ancients.leader.attach_stops",
     "\"The newly attached leader may not move with the unit he has just joined, and even if the unit itself has been "
     "ordered, it can now move no further (it can still battle however)\". Reading: "
     "docs/rulings.md#ancients-leaders-ordered-on-their-own",
     "a unit a leader joined this turn is moved"},
    {"ancients.leader.detach_card",
     "\"When a Section Command card, the Order Mounted Troops or the I am Spartacus Command card is played, a leader in "
     "the same hex as a unit may be ordered to detach\"; \"a leader may not detach from a unit when a 'Leadership' "
     "Command card is played\"",
     "an attached leader is ordered, or moves on his own, under a card that does not let leaders detach"},
    {"ancients.leader.detach_after_move",
     "\"Once an ordered unit with an attached leader moves, the attached leader cannot be ordered to detach\". Reading: "
     "docs/rulings.md#ancients-leaders-ordered-on-their-own",
     "a leader is moved on his own after the unit he was attached to has moved"},
    // --- Battle ---------------------------------------------------------------
    {"ancients.battle.phase",
     "\"You must complete all unit movements before proceeding to Battle\"; each ordered unit battles one at a time, "
     "\"in the sequence of your choice\". Reading: docs/rulings.md#ancients-battle-sequence",
     "a battle is declared before the movement ends, or a move after it; also names the phase change when the movement "
     "ends with a unit able to battle"},
    {"ancients.battle.eligible",
     "Only ordered units battle, and not those the movement text forbids (auxilia after 2 hexes, war machines once "
     "moved, terrain entered this turn)",
     "a battle names a unit of the other side, a unit not ordered, or one whose move forbids battle"},
    {"ancients.battle.once", "\"Each close combat is conducted by one eligible, ordered unit\": a unit battles once a turn, "
     "besides its bonus close combat after a momentum advance",
     "a unit battles a second time in a turn"},
    {"ancients.battle.target",
     "A battle is against one enemy unit on the board, or a lone enemy leader: only leader helmets hit him, one kills "
     "him, and if none does he evades. Reading: docs/rulings.md#ancients-lone-leaders-in-battle",
     "the target is a friendly or eliminated unit, or a leader not alone or not in reach; also names an attack on a lone "
     "leader"},
    {"ancients.battle.close",
     "\"A unit adjacent to an enemy unit must close combat the adjacent enemy unit if it chooses to battle\"; dice by "
     "class: light foot and light mounted 2, auxilia, medium cavalry and camels 3, medium infantry, warriors, heavy "
     "cavalry and heavy chariots 4, heavy infantry 5; elephants roll what the target would. Reading: "
     "docs/rulings.md#ancients-battle-classes",
     "a unit adjacent to an enemy fires at another, or a war machine is named in close combat"},
    {"ancients.battle.ranged",
     "Units with missile weapons fire at an enemy more than 1 hex away within range: 2 hexes (javelins), 3 (bows, "
     "slings); 2 dice, 1 once moved; no battle back and no evasion against fire. Reading: "
     "docs/rulings.md#ancients-battle-classes",
     "the target is out of range, or the unit has no missile weapon or cannot fire after moving"},
    {"ancients.battle.sight",
     "The target must be in line of sight: a unit or blocking terrain (forest, hill) in a hex between blocks it; a "
     "line along hex edges is blocked only if both sides are. Reading: docs/rulings.md#ancients-line-of-sight",
     "a unit or sight-blocking terrain lies between the firing unit and its target"},
    {"ancients.battle.dice",
     "Each battle die has six faces, one each: light (green circle), medium (blue triangle), heavy (red square), "
     "crossed swords, leader helmet, flag. Reading: docs/rulings.md#ancients-battle-dice",
     "every battle: the answer lists the faces rolled"},
    {"ancients.battle.hits",
     "A unit symbol hits a unit of its class; swords hit in close combat only (never for light foot and light mounted "
     "units, never against elephants); flags make the target retreat. Reading: docs/rulings.md#ancients-battle-classes",
     "every battle: the answer's hits and the faces that scored them"},
    {"ancients.battle.terrain_dice",
     "Terrain limits close-combat dice: at most 2 battling into or out of forest, broken ground or marsh, and "
     "attacking up a hill. Reading: docs/rulings.md#ancients-terrain-in-battle",
     "a close combat rolls fewer dice because of terrain"},
    {"ancients.battle.leader_hits",
     "In close combat a leader helmet hits when a friendly leader is in the battling unit's hex or an adjacent one "
     "(not for elephants). Reading: docs/rulings.md#ancients-leader-hits",
     "a close combat whose helmets score because of a leader"},
    {"ancients.battle.back",
     "\"The defender in some situations may Battle Back\": when it survives a close combat without retreating or "
     "evading, it rolls its own close-combat dice at the attacker. Reading: docs/rulings.md#ancients-battle-back",
     "a defender battles back"},
    {"ancients.battle.compulsory",
     "Warriors that move two hexes must close combat (\"this Close Combat is compulsory after a two-hex charge\")",
     "the battle ends while a charging warrior that can still close combat has not battled"},
    {"ancients.battle.odds",
     "Before an attack: the exact distribution of hits and flags over the 6^n equally likely rolls, and the chance of "
     "eliminating the target or forcing it to retreat. Reading: docs/rulings.md#ancients-attack-odds",
     "the odds query"},
    // --- Flags, retreat and evasion --------------------------------------------
    {"ancients.flag.retreat",
     "Each flag moves the unit back toward its own side its movement allowance (warriors 2, auxilia and elephants 1), "
     "never sideways, never onto or through a unit or a lone enemy leader; a lone friendly leader stops it and "
     "attaches. Reading: docs/rulings.md#ancients-retreat-onto-leaders",
     "a unit retreats"},
    {"ancients.flag.blocked", "\"One block must be removed for each hex\" a unit cannot retreat",
     "a retreating unit loses blocks for hexes it cannot retreat"},
    {"ancients.flag.support",
     "A unit supported by two adjacent friendly units may ignore one flag. Reading: docs/rulings.md#ancients-support",
     "a supported unit ignores a flag, or its owner retreats instead"},
    {"ancients.flag.leader",
     "A unit with an attached leader may ignore one flag, besides the one support allows. Reading: "
     "docs/rulings.md#ancients-support",
     "a unit with an attached leader ignores a flag, or its owner retreats instead"},
    {"ancients.flag.path",
     "\"The player controlling the unit decides which hex the unit retreats onto\": among the paths that lose the fewest "
     "blocks. Reading: docs/rulings.md#ancients-retreat-choice",
     "a retreat to a hex that is not one of its options, or the decision the answer asks for"},
    {"ancients.evade.eligible",
     "Light units and war machines may always evade; medium cavalry and camels evade foot and heavy mounted units; "
     "heavy cavalry and heavy chariots evade foot and elephants; others never. Reading: docs/rulings.md#ancients-evade",
     "an evasion by a unit that may not evade this attacker"},
    {"ancients.evade.move",
     "\"An Evade movement is a 2 hex move towards the unit's own side of the battlefield\", 1 hex only if that is the "
     "only space; a war machine is removed instead, giving no banner",
     "an evasion to a hex that is not one of its options"},
    {"ancients.evade.hits",
     "Against an evading unit \"only symbols that match the evading unit will score a hit\"",
     "a unit evades: the attacker's roll scores only its symbol"},
    // --- Leaders in battle -----------------------------------------------------
    {"ancients.leader.casualty",
     "A leader whose unit loses blocks but survives is hit on two leader helmets of 2 dice; when his unit is "
     "eliminated, on one helmet of 1 die; one check per combat. Reading: docs/rulings.md#ancients-leader-casualty",
     "a leader casualty check"},
    {"ancients.leader.evade",
     "A leader left alone when his unit is eliminated, and not hit, must evade 1 to 3 hexes toward his own side, or "
     "escape off his own edge. Reading: docs/rulings.md#ancients-leader-casualty",
     "a leader evades after his unit is eliminated"},
    // --- Momentum -------------------------------------------------------------
    {"ancients.momentum.advance",
     "When a close combat eliminates the defender or makes it retreat, the attacker may advance into the vacated hex "
     "(not after evasion, fire or battle back). Reading: docs/rulings.md#ancients-momentum",
     "a momentum advance is offered, taken or declined"},
    {"ancients.momentum.bonus",
     "After a momentum advance mounted units (not elephants), warriors and foot with an attached leader may make one "
     "bonus close combat. Reading: docs/rulings.md#ancients-momentum",
     "a unit makes a bonus close combat, or a second one is refused"},
    // --- Victory ---------------------------------------------------------------
    {"ancients.victory.banners",
     "\"Be the first to capture a set number of Victory Banners\", one for each enemy unit or leader eliminated; the "
     "scenario sets the number. Reading: docs/rulings.md#ancients-victory-banners",
     "a banner is won, and the game ends when a side reaches its count"},
    {"ancients.decision.pending",
     "A combat waits on a player's choice (evade or stand, the retreat hex, advance or hold); nothing else may happen "
     "until it is made. Reading: docs/rulings.md#ancients-battle-sequence",
     "any other action while a combat waits on a choice"},
    // --- The game ------------------------------------------------------------
    {"ancients.game.over",
     "The game ends when a side has its victory banners, or, with neither there, after the scenario's turn_limit turns "
     "or, under the scenario's \"no_reshuffle\" setting, when the player to play holds no command card. Reading: "
     "docs/rulings.md#ancients-game-end",
     "any action once the game is over"},
};

}  // namespace

std::span<const RuleInfo> rule_catalogue() { return kRules; }

}  // namespace referee::ancients
