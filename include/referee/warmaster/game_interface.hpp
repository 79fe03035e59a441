// Warmaster on the one game interface (core/game.hpp): a layer over the
// typed CommandState, as OpenSpiel's ChessState sits over ChessBoard.
// Actions and states are the JSON of docs/warmaster-command.md; the named
// queries are those of queries.hpp.
#pragma once

#include <memory>
#include <string>

#include "referee/core/game.hpp"
#include "referee/warmaster/command_state.hpp"

namespace referee::warmaster {

// The registry entry: name "warmaster".
GameType game_type();

// A battlefield file's JSON, with settings overrides merged over the file's
// own (unknown keys are InputErrors naming "settings.<key>").
std::shared_ptr<const Game> load_game(const Json& battlefield, const std::string& source, const Json& settings);

// The typed state behind an interface state made by this module, for
// callers that need the typed API (renderers, the built-in opponent).
// nullptr for a state of another system.
const CommandState* typed_state(const GameState& s);

}  // namespace referee::warmaster
