// Warmaster's part of the command line (its row in command_lines.cpp): the
// questions of warmaster_*_commands.cpp, the optional rules as flags,
// `state --ask`, the order a character would need now, and its picture.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "referee/core/game_adapter.hpp"
#include "referee/warmaster/battle/render.hpp"
#include "referee/warmaster/game_interface.hpp"
#include "system_commands.hpp"

namespace referee::cli {

namespace {

void add_warmaster_commands(CLI::App& warmaster, std::uint64_t max_bytes) {
  add_warmaster_move_commands(warmaster, max_bytes);
  add_warmaster_reach_commands(warmaster, max_bytes);
  add_warmaster_command_commands(warmaster, max_bytes);
  add_warmaster_shooting_commands(warmaster, max_bytes);
  add_warmaster_combat_commands(warmaster, max_bytes);
}

// state --ask CHARACTER --unit U...: the query order_odds, with a line of text.
CommandLineEntry::StateAddition add_order_question(CLI::App& state) {
  struct Ask {
    std::string character;
    std::vector<std::string> units;
  };
  auto ask = std::make_shared<Ask>();
  state.add_option("--ask", ask->character, "What would an order by this character need now? (query order_odds)");
  state.add_option("--unit", ask->units, "The unit(s) of the order asked about");
  return [ask](const GameState& s, Json& answer, std::string& text) {
    if (ask->character.empty()) return;
    const Json args{{"character", ask->character}, {"units", ask->units}};
    answer["order"] = s.query("order_odds", args, "--ask");
    const Json& q = answer["order"];
    text += fmt::format("an order by {} needs {} or less on 2D6: chance {}\n", ask->character,
                        q.at("needed").get<int>(), q.at("chance").at("fraction").get<std::string>());
  };
}

// The battlefield as SVG (play and arena --svg-dir).
std::string warmaster_picture(const GameState& s, const std::string& caption) {
  const warmaster::WarmasterState* w = typed_state<warmaster::System>(s);
  return w ? warmaster::render_svg(w->battlefield(), warmaster::RenderOptions{nullptr, {}, caption}) : std::string();
}

}  // namespace

CommandLineEntry warmaster_command_line() {
  return {"Warmaster: movement, initiative, orders (cm, 40x20 mm stands)",
          {{"--first-turn-bonus", "Optional rule: +1 Command on first orders of turn 1", "first_turn_command_bonus",
            true},
           {"--failed-first-order-no-move", "Older printings: a failed first order allows no move",
            "failed_first_order_moves_half_pace", false}},
          &add_warmaster_commands,
          &add_order_question,
          &warmaster_picture};
}

}  // namespace referee::cli
