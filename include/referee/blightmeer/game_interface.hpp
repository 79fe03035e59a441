// Blightmeer on the one game interface (core/game.hpp): a layer over the
// typed game of game.hpp. Actions and states are the JSON of
// docs/blightmeer.md; the named queries are those of queries.hpp.
#pragma once

#include <memory>
#include <string>

#include "referee/blightmeer/game.hpp"
#include "referee/core/game.hpp"

namespace referee::blightmeer {

// The registry entry: name "blightmeer".
GameType game_type();

// A battlefield file's JSON, with settings overrides merged over the file's
// own "settings" (unknown keys are InputErrors naming them).
std::shared_ptr<const Game> load_game(const Json& battle, const std::string& source, const Json& settings);

// The typed battle and state behind an interface game or state made by this
// module; nullptr for another system's.
const Battle* typed_battle(const Game& g);
const GameState* typed_state(const referee::GameState& s);

}  // namespace referee::blightmeer
