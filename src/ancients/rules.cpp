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
    // --- The game ------------------------------------------------------------
    {"ancients.game.over",
     "Our texts give no victory rule: a game lasts the scenario's turn_limit turns, or until the player to play "
     "holds no command card. Reading: docs/rulings.md#ancients-game-end",
     "any action once the game is over"},
};

}  // namespace

std::span<const RuleInfo> rule_catalogue() { return kRules; }

}  // namespace referee::ancients
