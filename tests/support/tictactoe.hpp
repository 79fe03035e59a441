// A fourth "system" used only by the tests: tic-tac-toe on the game
// interface. It proves the interface and the generic tests depend on nothing
// the three real systems happen to share. Chance is made explicit with one
// die: the action "toss" at the start rolls a d6 (1-3: X starts, 4-6: O).
#pragma once

#include <array>
#include <memory>

#include <fmt/format.h>

#include "referee/core/errors.hpp"
#include "referee/core/game.hpp"
#include "referee/core/json_io.hpp"

namespace referee::testing_games {

class TicTacToeState final : public GameState {
 public:
  std::array<int, 9> cells{};  // 0 empty, 1 X (player 0), 2 O (player 1)
  bool tossed = false;
  int to_move = 0;
  int moves = 0;
  // Dice the toss rolls: the first decides; the others only widen the sample
  // space, for tests of enumerate_chance's limits.
  int toss_dice = 1;

  std::unique_ptr<GameState> clone() const override { return std::make_unique<TicTacToeState>(*this); }
  Json to_json() const override {
    return {{"cells", cells}, {"tossed", tossed}, {"to_move", to_move}, {"moves", moves}};
  }
  Json view(int) const override { return to_json(); }  // nothing is hidden
  int winner() const {
    static constexpr int lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                        {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
    for (const auto& l : lines)
      if (cells[l[0]] != 0 && cells[l[0]] == cells[l[1]] && cells[l[1]] == cells[l[2]]) return cells[l[0]] - 1;
    return -1;
  }
  bool is_terminal() const override { return winner() >= 0 || moves == 9; }
  int current_player() const override { return is_terminal() ? -1 : to_move; }
  int turn() const override { return moves / 2 + 1; }
  std::string phase() const override { return tossed ? "play" : "toss"; }
  Json result() const override {
    if (!is_terminal()) return game_result(false, std::nullopt, "");
    const int w = winner();
    return w >= 0 ? game_result(true, w, fmt::format("three in a row for {}", w == 0 ? "X" : "O"))
                  : game_result(true, std::nullopt, "a draw: the board is full");
  }

  struct Parsed {
    bool toss = false;
    int cell = -1;
  };
  static Parsed parse(const Json& j, const std::string& path) {
    JsonReader r(j, path);
    r.require_object();
    const std::string type = r.one_of("type", {"toss", "mark"});
    if (type == "toss") {
      r.allow_only({"type"});
      return {true, -1};
    }
    r.allow_only({"type", "cell"});
    return {false, r.integer("cell", 0, 8)};
  }
  Verdict check(const Parsed& p) const {
    Verdict v;
    if (is_terminal()) v.add("tictactoe.over", "the game is over");
    else if (p.toss && tossed) v.add("tictactoe.toss", "the toss has been made");
    else if (!p.toss && !tossed) v.add("tictactoe.toss", "toss for who starts first");
    else if (!p.toss && cells[static_cast<std::size_t>(p.cell)] != 0)
      v.add("tictactoe.occupied", fmt::format("cell {} is taken", p.cell), {{"cell", double(p.cell), ""}});
    return v;
  }
  Verdict validate(const Json& a, const std::string& path) const override { return check(parse(a, path)); }
  Outcome apply(const Json& a, Dice& dice, const std::string& path, bool) override {
    const Parsed p = parse(a, path);
    Outcome o;
    o.verdict = check(p);
    if (!o.verdict.legal()) return o;
    if (p.toss) {
      const std::size_t mark = dice.history().size();
      const int d = dice.d6("who starts");
      for (int k = 1; k < toss_dice; ++k) (void)dice.d6("for show");
      o.rolls = dice.since(mark);
      to_move = d <= 3 ? 0 : 1;
      tossed = true;
      o.result = {{"starts", to_move}};
      return o;
    }
    cells[static_cast<std::size_t>(p.cell)] = to_move + 1;
    ++moves;
    to_move = 1 - to_move;
    o.result = {{"marked", p.cell}};
    return o;
  }
  std::vector<Json> legal_actions() const override {
    std::vector<Json> out;
    if (is_terminal()) return out;
    if (!tossed) return {{{"type", "toss"}}};
    for (int c = 0; c < 9; ++c)
      if (cells[static_cast<std::size_t>(c)] == 0) out.push_back({{"type", "mark"}, {"cell", c}});
    return out;
  }
  std::optional<Json> sample_action(Rng& rng) const override {
    auto all = legal_actions();
    if (all.empty()) return std::nullopt;
    return all[rng.below(all.size())];
  }
  Chances chance_outcomes(const Json& a, const std::string& path) const override {
    const Parsed p = parse(a, path);
    if (!p.toss || !check(p).legal()) return Chances::no_dice();
    return Chances::of({{"X starts (1-3)", {3, 6}, {{"starts", 0}}}, {"O starts (4-6)", {3, 6}, {{"starts", 1}}}});
  }
  Json query(const std::string& name, const Json& args, const std::string& path) const override {
    if (name != "free_cells") throw InputError("query", "unknown query \"" + name + "\"");
    JsonReader(args, path).require_object().allow_only({});
    Json cellsj = Json::array();
    for (int c = 0; c < 9; ++c)
      if (cells[static_cast<std::size_t>(c)] == 0) cellsj.push_back(c);
    return {{"free", cellsj}};
  }
};

inline std::span<const RuleInfo> tictactoe_rules() {
  static constexpr RuleInfo kRules[] = {
      {"tictactoe.over", "The game ends with three in a row or a full board.", "an action after the end"},
      {"tictactoe.toss", "A die decides who starts: 1-3 X, 4-6 O.", "marking before the toss, or tossing twice"},
      {"tictactoe.occupied", "Mark an empty cell.", "marking a cell already marked"}};
  return kRules;
}

class TicTacToe final : public Game {
 public:
  explicit TicTacToe(Json scenario) : scenario_(std::move(scenario)) {}
  std::string system() const override { return "tictactoe"; }
  std::vector<std::string> players() const override { return {"X", "O"}; }
  const Json& scenario() const override { return scenario_; }
  std::unique_ptr<GameState> new_initial_state() const override { return std::make_unique<TicTacToeState>(); }
  std::unique_ptr<GameState> new_initial_state(Dice&) const override { return new_initial_state(); }
  Information information() const override { return Information::perfect; }
  Json entry_view(const Json& entry, int) const override { return entry; }
  std::unique_ptr<GameState> state_from_json(const Json& j, const std::string& path) const override {
    JsonReader r(j, path);
    r.require_object().allow_only({"cells", "tossed", "to_move", "moves"});
    auto s = std::make_unique<TicTacToeState>();
    const auto cells = r.items("cells");
    if (cells.size() != 9) r.fail("cells", "expected 9 cells");
    int filled = 0;
    for (std::size_t i = 0; i < 9; ++i) {
      s->cells[i] = cells[i].as_integer(0, 2);
      filled += s->cells[i] != 0;
    }
    s->tossed = r.boolean_or("tossed", false);
    s->to_move = r.integer("to_move", 0, 1);
    s->moves = r.integer("moves", 0, 9);
    if (s->moves != filled) r.fail("moves", fmt::format("{} moves but {} cells marked", s->moves, filled));
    return s;
  }
  std::vector<QueryInfo> queries() const override { return {{"free_cells", "The cells still empty", Json::object()}}; }
  std::span<const RuleInfo> rules() const override { return tictactoe_rules(); }

 private:
  Json scenario_;
};

// Its registry entry. `board_js`, when given, is its web board's module
// (tests/support/tictactoe_board.js), served as tictactoe.js.
inline GameType tictactoe_type(std::string board_js = {}) {
  GameType t{"tictactoe", "Tic-tac-toe", "three in a row on a 3 x 3 board (tests only)",
             [](const Json& scenario, const std::string& source, const Json& settings) -> std::shared_ptr<const Game> {
               JsonReader r(scenario, source);
               r.require_object().allow_only({"name", "settings"});
               JsonReader(settings, "settings").require_object().allow_only({});
               return std::make_shared<TicTacToe>(scenario);
             },
             {{"free_cells", "The cells still empty", Json::object()}}};
  t.rules = &tictactoe_rules;
  t.battles = {{"empty", "tictactoe/empty.json", "Tic-tac-toe: an empty board",
                R"({"name": "An empty board"})"}};
  if (!board_js.empty()) {
    t.board_module = "tictactoe.js";
    t.web_files = {{"tictactoe.js", std::move(board_js)}};
  }
  return t;
}

}  // namespace referee::testing_games
