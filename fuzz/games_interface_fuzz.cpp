// Fuzzes every registered system through the one game interface. The input
// is JSON Lines, so the golden game logs are its seeds. A log header
// ({"format", "system", "battle", ...}) loads its battle through the
// registry; without one, the first byte picks a bundled battle. A line with
// "state" resumes that state (Game::state_from_json); a line
// {"query": name, "args": {...}} asks a named query; any other line is an
// action (a log entry's "action", or the line itself): validated, its
// chances asked, then applied with dice drawn from the input's own bytes. Bad input must be an InputError (or ScriptError),
// never a crash, a hang or undefined behaviour; a refused action must leave
// the state as it was.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "referee/core/errors.hpp"
#include "referee/core/files.hpp"
#include "referee/core/json_io.hpp"
#include "referee/core/match.hpp"
#include "referee/games/builtin.hpp"

namespace {

using namespace referee;

const std::vector<std::shared_ptr<const Game>>& games() {
  static const std::vector<std::shared_ptr<const Game>> all = [] {
    std::vector<std::shared_ptr<const Game>> v;
    for (const BundledBattle& b : bundled_battles())
      v.push_back(builtin_games().at(b.system).load(load_json_file(std::string(REFEREE_SOURCE_DIR) + "/" + b.file),
                                                    b.file, Json::object()));
    return v;
  }();
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const auto& all = games();
  std::shared_ptr<const Game> game = all[data[0] % all.size()];
  const std::string text(reinterpret_cast<const char*>(data), size);
  // The dice are seeded from the input, so a crash reproduces from its file.
  std::uint64_t seed = 1469598103934665603ull;
  for (std::size_t i = 0; i < size; ++i) seed = (seed ^ data[i]) * 1099511628211ull;
  std::unique_ptr<GameState> state = game->new_initial_state();
  std::size_t start = 0;
  int lines = 0;
  while (start < text.size() && lines++ < 64) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    try {
      const Json j = parse_json_text(line, "fuzz");
      if (j.is_object() && j.contains("format") && j.contains("system") && j.contains("battle")) {
        const GameType* type = j.at("system").is_string() ? builtin_games().find(j.at("system").get<std::string>()) : nullptr;
        if (!type) continue;
        game = type->load(j.at("battle"), "battle", j.value("settings", Json::object()));
        state = game->new_initial_state();
        continue;
      }
      if (j.is_object() && j.contains("state")) {
        state = game->state_from_json(j.at("state"), "state");
        (void)state->to_json();
        (void)state->legal_actions();
        for (int viewer = kSpectator; viewer < static_cast<int>(game->players().size()); ++viewer) (void)state->view(viewer);
        continue;
      }
      // Any JSON as a log entry, seen by each viewer: never a crash.
      if (j.is_object() && j.contains("seq")) {
        for (int viewer = kSpectator; viewer < static_cast<int>(game->players().size()); ++viewer)
          (void)game->entry_view(j, viewer);
        continue;
      }
      if (j.is_object() && j.contains("query") && j.at("query").is_string()) {
        (void)state->query(j.at("query").get<std::string>(), j.value("args", Json::object()), "args");
        continue;
      }
      const Json& action = j.is_object() && j.contains("action") ? j.at("action") : j;
      const Json before = state->to_json();
      const Verdict v = state->validate(action, "action");
      (void)state->chance_outcomes(action, "action");
      StreamDice dice(DiceSource{seed, std::nullopt});
      const Outcome o = state->apply(action, dice, "action");
      if (o.applied() != v.legal()) std::abort();              // validate and apply disagree
      if (!o.applied() && state->to_json() != before) std::abort();  // a refusal changed the state
    } catch (const InputError&) {
    } catch (const ScriptError&) {
    }
  }
  return 0;
}
