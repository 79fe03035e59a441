// Commands & Colors: Ancients on the one game interface (core/game.hpp): a
// layer over the typed game of game.hpp. Actions and states are the JSON of
// docs/ancients.md; the named queries are those of queries.hpp.
#pragma once

#include <memory>
#include <string>

#include "referee/ancients/game.hpp"
#include "referee/core/game.hpp"

namespace referee::ancients {

// The registry entry: name "ancients".
GameType game_type();

// A battle file's JSON. Ancients has no settings to override yet: any key
// in `settings` is an InputError naming it.
std::shared_ptr<const Game> load_game(const Json& battle, const std::string& source, const Json& settings);

// The typed battle and state behind an interface game or state made by this
// module; nullptr for another system's.
const Battle* typed_battle(const Game& g);
const GameState* typed_state(const referee::GameState& s);

}  // namespace referee::ancients
