// What each player may know of the command cards (docs/rulings.md#ancients-hidden-cards):
// a hand is its holder's, and nobody sees a deck's order, so a player's view
// of the state shows the other's hand and both decks as counts, and a log
// entry shows the card a draw took to its drawer alone and hides the dice of
// a reshuffle (they give the new deck's order) from everyone. The cards
// played, the discards and every other die are seen by all.
#pragma once

#include <nlohmann/json.hpp>

#include "referee/ancients/turn.hpp"

namespace referee::ancients {

// state_json(b, s) as `viewer` (side 0 or 1, or core's kSpectator, -1) may
// know it: "hands" holds null for a hand the viewer does not hold, "decks"
// is [null, null], and "hand_sizes", "deck_sizes" and "hidden" (the paths
// left out: "hands[1]", "decks[0]", ...) say what is there.
nlohmann::json state_view(const Battle& b, const AncientsState& s, int viewer);

// A log entry's JSON line as `viewer` may read it: every "drew" of a side
// other than the viewer's is null (with "drew_hidden": true beside it), and
// every roll for "reshuffle" has a null value.
nlohmann::json entry_view(const Battle& b, const nlohmann::json& entry, int viewer);

}  // namespace referee::ancients
