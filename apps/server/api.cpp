#include "api.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "referee/core/errors.hpp"
#include "referee/core/game_log.hpp"
#include "referee/core/json_io.hpp"
#include "referee/core/rule_catalogue.hpp"

namespace referee::server {

namespace {

// Errors echo what the client sent (a battle id, a path), which need not be
// UTF-8: invalid bytes become U+FFFD rather than an exception.
Response json_response(int status, const Json& j) {
  return {status, "application/json", j.dump(-1, ' ', false, Json::error_handler_t::replace)};
}
Response ok(const Json& j) { return json_response(200, j); }

// "/api/games/x/apply" -> {"games", "x", "apply"}. Empty segments ("//") and
// dot segments are refused by the caller as unknown routes.
std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t slash = path.find('/', start);
    const std::size_t end = slash == std::string_view::npos ? path.size() : slash;
    parts.emplace_back(path.substr(start, end - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return parts;
}

// The request body as an object; an empty body reads as {}.
Json body_object(const std::string& body) {
  if (body.find_first_not_of(" \t\r\n") == std::string::npos) return Json::object();
  Json j = parse_json_text(body, "body");
  if (!j.is_object()) throw InputError("body", "expected a JSON object");
  return j;
}

Json rolls_json(const std::vector<Roll>& rolls) {
  Json out = Json::array();
  for (const Roll& r : rolls) out.push_back(r);
  return out;
}

Json outcome_json(const Outcome& o) {
  Json v = o.verdict;
  return {{"applied", o.applied()},
          {"legal", o.verdict.legal()},
          {"violations", v.contains("violations") ? v["violations"] : Json::array()},
          {"rolls", rolls_json(o.rolls)},
          {"result", o.result}};
}

std::uint64_t seed_from(const JsonReader& r) {
  auto s = r.find("seed");
  if (!s) return 1;
  const Json& j = s->json();
  if (!j.is_number_unsigned()) s->fail("expected a whole number from 0 to 18446744073709551615");
  return j.get<std::uint64_t>();
}

std::optional<std::vector<int>> dice_script_from(const JsonReader& r) {
  auto d = r.find("dice");
  if (!d) return std::nullopt;
  std::vector<int> values;
  for (const JsonReader& v : d->items()) values.push_back(v.as_integer(1, 100));
  return values;
}

}  // namespace

Response error_response(int status, const std::string& field, const std::string& problem) {
  const std::string message = field.empty() ? problem : field + ": " + problem;
  return json_response(status, {{"error", {{"status", status}, {"field", field}, {"problem", problem}, {"message", message}}}});
}

std::string random_game_id() {
  std::random_device device;
  std::string id;
  for (int i = 0; i < 4; ++i) id += fmt::format("{:08x}", static_cast<std::uint32_t>(device()));
  return id;
}

Api::Api(const GameRegistry& registry, std::vector<Battle> battles, Limits limits, std::function<std::string()> new_id)
    : registry_(registry), battles_(std::move(battles)), limits_(limits), new_id_(std::move(new_id)) {
  if (battles_.empty()) throw std::logic_error("the web board needs at least one battle to open on");
}

std::size_t Api::game_count() const {
  std::lock_guard lock(store_mutex_);
  return games_.size();
}

Response Api::handle(const Request& request) {
  if (request.body.size() > limits_.max_body_bytes)
    return error_response(413, "body", fmt::format("{} bytes is more than the {} this server accepts",
                                                   request.body.size(), limits_.max_body_bytes));
  try {
    return route(request);
  } catch (const InputError& e) {
    return error_response(400, e.field(), e.problem());
  } catch (const ScriptError& e) {
    return error_response(400, "dice", e.what());
  } catch (const nlohmann::json::exception& e) {
    return error_response(400, "body", e.what());
  } catch (const std::bad_alloc&) {
    return error_response(413, "body", "the request needs more memory than this server has");
  }
}

Response Api::route(const Request& request) {
  const std::string& m = request.method;
  if (request.path.rfind("/api/", 0) != 0) return error_response(404, "path", "no such route: " + request.path);
  const std::vector<std::string> parts = split_path(std::string_view(request.path).substr(5));
  for (const std::string& p : parts)
    if (p.empty() || p == "." || p == "..") return error_response(404, "path", "no such route: " + request.path);

  auto method_not_allowed = [&](const char* allowed) {
    return error_response(405, "method", fmt::format("{} {} is not a route; use {}", m, request.path, allowed));
  };
  const std::string& head = parts[0];
  if (head == "systems" && parts.size() == 1) {
    if (m != "GET") return method_not_allowed("GET");
    Json out = Json::array();
    for (const GameType& t : registry_.types()) {
      Json q = Json::array();
      for (const QueryInfo& qi : t.queries) q.push_back(to_json_value(qi));
      out.push_back({{"name", t.name}, {"title", t.title}, {"summary", t.summary}, {"opponent", static_cast<bool>(t.opponent)},
                     {"queries", q}});
    }
    return ok(out);
  }
  if (head == "battles") {
    if (m != "GET") return method_not_allowed("GET");
    return battles_route(parts);
  }
  if (head == "rules") {
    if (m != "GET") return method_not_allowed("GET");
    return rules_route(parts);
  }
  if (head == "games") {
    if (parts.size() == 1) {
      if (m != "POST") return method_not_allowed("POST");
      return create_game(body_object(request.body));
    }
    if (parts.size() == 2 && parts[1] == "import") {
      if (m != "POST") return method_not_allowed("POST");
      return import_log(request.body);
    }
    return game_route(m, parts, request.body);
  }
  return error_response(404, "path", "no such route: " + request.path);
}

Response Api::battles_route(const std::vector<std::string>& parts) {
  if (parts.size() == 1) {
    Json list = Json::array();
    for (const Battle& b : battles_) {
      const GameType* type = registry_.find(b.system);
      list.push_back({{"id", b.id}, {"system", b.system}, {"title", b.title},
                      {"opponent", type != nullptr && static_cast<bool>(type->opponent)}});
    }
    return ok({{"default", battles_.front().id}, {"battles", list}});
  }
  const std::string id = fmt::format("{}", fmt::join(parts.begin() + 1, parts.end(), "/"));
  for (const Battle& b : battles_)
    if (b.id == id) return ok(b.scenario);
  return error_response(404, "battle", "no bundled battle \"" + id + "\"");
}

Response Api::rules_route(const std::vector<std::string>& parts) {
  if (parts.size() < 2 || parts.size() > 3) return error_response(404, "path", "expected /api/rules/{system}[/{rule id}]");
  const GameType& type = registry_.at(parts[1], "system");
  // The catalogue lives on a Game; any bundled battle of the system gives it.
  const Battle* battle = nullptr;
  for (const Battle& b : battles_)
    if (b.system == type.name) {
      battle = &b;
      break;
    }
  if (battle == nullptr) return error_response(404, "system", "no battle of " + type.name + " is loaded");
  const auto game = type.load(battle->scenario, battle->id, Json::object());
  const Json all = rules_to_json(game->rules());
  if (parts.size() == 2) return ok(all);
  for (const Json& r : all)
    if (r.value("id", "") == parts[2]) return ok(r);
  return error_response(404, "rule", "no rule \"" + parts[2] + "\" in " + type.name);
}

Response Api::create_game(const Json& body) {
  JsonReader r(body, "");
  r.allow_only({"battle", "system", "scenario", "seed", "dice", "settings"});
  Json settings = Json::object();
  if (auto s = r.find("settings")) {
    s->require_object();
    settings = s->json();
  }
  const DiceSource dice{seed_from(r), dice_script_from(r)};
  std::shared_ptr<const Game> game;
  std::string name;
  if (r.has("scenario")) {
    if (r.has("battle")) r.fail("battle", "give a bundled battle or a scenario, not both");
    const GameType& type = registry_.at(r.string("system"), "system");
    name = "uploaded battle";
    game = naming_source("scenario", [&] { return type.load(body["scenario"], "scenario", settings); });
  } else {
    const std::string id = r.has("battle") ? r.string("battle") : battles_.front().id;
    const Battle* battle = nullptr;
    for (const Battle& b : battles_)
      if (b.id == id) battle = &b;
    if (battle == nullptr) r.fail("battle", "no bundled battle \"" + id + "\"; GET /api/battles lists them");
    if (r.has("system") && r.string("system") != battle->system)
      r.fail("system", "battle " + id + " is a " + battle->system + " battle");
    game = registry_.at(battle->system, "system").load(battle->scenario, battle->id, settings);
    name = battle->id;
  }
  auto match = std::make_unique<Match>(game, dice, name, settings);
  std::string id = store(std::move(match), name);
  auto slot = find_game(id);
  std::lock_guard lock(slot->mutex);
  slot->opponent_seed = dice.seed;
  return json_response(201, view(id, *slot));
}

Response Api::import_log(const std::string& body) {
  const GameLog log = GameLog::parse_jsonl(body, "log");
  if (log.entries.size() > limits_.max_log_entries)
    throw InputError("log", fmt::format("{} entries is more than the {} a game may hold here", log.entries.size(),
                                        limits_.max_log_entries));
  if (log.battle.is_null()) throw InputError("log", "the log's header carries no battle, so it cannot be replayed here");
  auto match = std::make_unique<Match>(Match::replay(registry_, log, "log"));
  std::string name = log.scenario.empty() ? "imported log" : log.scenario;
  std::string id = store(std::move(match), name);
  auto slot = find_game(id);
  std::lock_guard lock(slot->mutex);
  slot->opponent_seed = slot->match->dice_source().seed;
  return json_response(201, view(id, *slot));
}

std::string Api::store(std::unique_ptr<Match> match, std::string battle) {
  auto slot = std::make_shared<Slot>();
  slot->match = std::move(match);
  slot->battle = std::move(battle);
  slot->used = std::chrono::steady_clock::now();
  std::lock_guard lock(store_mutex_);
  while (games_.size() >= limits_.max_games && !games_.empty()) {
    auto oldest = std::min_element(games_.begin(), games_.end(),
                                   [](const auto& a, const auto& b) { return a.second->used < b.second->used; });
    games_.erase(oldest);
  }
  std::string id = new_id_();
  while (games_.count(id) != 0) id = new_id_();
  games_.emplace(id, std::move(slot));
  return id;
}

std::shared_ptr<Api::Slot> Api::find_game(const std::string& id) {
  std::lock_guard lock(store_mutex_);
  auto it = games_.find(id);
  if (it == games_.end()) return nullptr;
  it->second->used = std::chrono::steady_clock::now();
  return it->second;
}

Json Api::view(const std::string& id, const Slot& slot) const {
  const Match& m = *slot.match;
  const GameState& s = m.state();
  Json players = m.game().players();
  return {{"id", id},
          {"system", m.game().system()},
          {"battle", slot.battle},
          {"players", players},
          {"turn", s.turn()},
          {"current_player", s.current_player()},
          {"phase", s.phase()},
          {"terminal", s.is_terminal()},
          {"result", s.result()},
          {"position", m.position()},
          {"history_size", m.history_size()},
          {"can_undo", m.can_undo()},
          {"can_redo", m.can_redo()},
          {"dice", {{"seed", m.dice_source().seed}, {"scripted", m.dice_source().script.has_value()}}},
          {"scenario", m.game().scenario()},
          {"state", s.to_json()}};
}

Response Api::game_route(const std::string& m, const std::vector<std::string>& parts, const std::string& body) {
  auto slot = find_game(parts[1]);
  if (!slot) return error_response(404, "game", "no game with this id (games live in memory, and a restart forgets them)");
  if (parts.size() > 4) return error_response(404, "path", "no such route under /api/games/{id}");
  const std::string what = parts.size() >= 3 ? parts[2] : "";
  auto method_not_allowed = [&](const char* allowed) {
    return error_response(405, "method", fmt::format("{} /api/games/{{id}}/{} is not a route; use {}", m, what, allowed));
  };
  auto need = [&](const char* method) { return m == method; };

  if (what.empty()) {
    if (m == "DELETE") {
      std::lock_guard lock(store_mutex_);
      games_.erase(parts[1]);
      return ok({{"deleted", parts[1]}});
    }
    if (!need("GET")) return method_not_allowed("GET or DELETE");
    std::lock_guard lock(slot->mutex);
    return ok(view(parts[1], *slot));
  }
  if (what == "replay") {
    if (!need("GET")) return method_not_allowed("GET");
    if (parts.size() != 4) return error_response(404, "path", "expected /api/games/{id}/replay/{step}");
    std::lock_guard lock(slot->mutex);
    const std::string& text = parts[3];
    const bool digits = !text.empty() && text.size() <= 9 && text.find_first_not_of("0123456789") == std::string::npos;
    const std::size_t last = slot->match->position();
    if (!digits || std::stoul(text) > last)
      return error_response(400, "step", fmt::format("expected a step from 0 to {}, got \"{}\"", last, text));
    const std::size_t step = std::stoul(text);
    Match copy = *slot->match;
    while (copy.position() > step) copy.undo();
    const GameState& s = copy.state();
    Json entry = step == 0 ? Json(nullptr) : Json(copy.current_log().entries.back().action);
    return ok({{"step", step}, {"steps", last}, {"turn", s.turn()}, {"current_player", s.current_player()},
               {"phase", s.phase()}, {"action", entry}, {"state", s.to_json()}});
  }
  if (parts.size() != 3) return error_response(404, "path", "no such route under /api/games/{id}");

  std::lock_guard lock(slot->mutex);
  Match& match = *slot->match;
  if (what == "validate" || what == "apply" || what == "chance") {
    if (!need("POST")) return method_not_allowed("POST");
    const Json j = body_object(body);
    JsonReader r(j, "");
    r.allow_only({"action"});
    const Json& action = r.at("action").json();
    if (what == "validate") {
      Json v = match.state().validate(action, "action");
      return ok({{"legal", v.value("legal", false)}, {"violations", v.value("violations", Json::array())}});
    }
    if (what == "chance") {
      Json out = Json::array();
      for (const ChanceOutcome& c : match.state().chance_outcomes(action, "action")) out.push_back(to_json_value(c));
      return ok({{"outcomes", out}});
    }
    if (match.position() >= limits_.max_log_entries)
      return error_response(409, "game", fmt::format("this game has reached the {} actions a game may hold here; "
                                                     "save its log and load it into referee play", limits_.max_log_entries));
    Json out = outcome_json(match.play(action, "action"));
    out["game"] = view(parts[1], *slot);
    return ok(out);
  }
  if (what == "opponent") {
    if (!need("POST")) return method_not_allowed("POST");
    return opponent_route(parts[1], *slot, body);
  }
  if (what == "legal-actions") {
    if (!need("GET")) return method_not_allowed("GET");
    return ok({{"actions", match.state().legal_actions()}});
  }
  if (what == "sample") {
    if (!need("POST")) return method_not_allowed("POST");
    const Json j = body_object(body);
    JsonReader r(j, "");
    r.allow_only({"seed"});
    Rng rng(seed_from(r));
    auto a = match.state().sample_action(rng);
    return ok({{"action", a ? *a : Json(nullptr)}});
  }
  if (what == "queries") {
    if (!need("GET")) return method_not_allowed("GET");
    Json out = Json::array();
    for (const QueryInfo& q : match.game().queries()) out.push_back(to_json_value(q));
    return ok(out);
  }
  if (what == "query") {
    if (!need("POST")) return method_not_allowed("POST");
    const Json j = body_object(body);
    JsonReader r(j, "");
    r.allow_only({"name", "args"});
    const std::string name = r.string("name");
    const Json args = r.has("args") ? j["args"] : Json::object();
    return ok(match.state().query(name, args, "args"));
  }
  if (what == "undo" || what == "redo") {
    if (!need("POST")) return method_not_allowed("POST");
    if (what == "undo" ? !match.can_undo() : !match.can_redo())
      return error_response(409, what, "there is nothing to " + what);
    what == "undo" ? match.undo() : match.redo();
    return ok(view(parts[1], *slot));
  }
  if (what == "log") {
    if (!need("GET")) return method_not_allowed("GET");
    return {200, "application/x-ndjson", match.current_log().to_jsonl()};
  }
  return error_response(404, "path", "no such route: /api/games/{id}/" + what);
}

// The built-in opponent plays the current player's actions through the
// Match, as /apply does (logged, rolled with the game's dice, undoable).
// Each choice is drawn with an Rng seeded from the game's seed and the log
// position it is made at: the same game asks the same questions and gets
// the same answers, after an undo as on a replay.
Response Api::opponent_route(const std::string& id, Slot& slot, const std::string& body) {
  const Json j = body_object(body);
  JsonReader r(j, "");
  r.allow_only({"until"});
  const bool one = r.one_of_or("until", {"action", "player"}, "player") == "action";
  Match& match = *slot.match;
  const GameType& type = registry_.at(match.game().system(), "system");
  if (!type.opponent)
    return error_response(409, "system", type.title + " has no built-in opponent here; play both sides (hot-seat)");
  if (match.state().is_terminal())
    return error_response(409, "game", "the game is over: " + match.state().result().value("reason", std::string()));
  const int player = match.state().current_player();
  Json actions = Json::array();
  std::string stopped;
  for (std::size_t n = 0;; ++n) {
    if (match.state().is_terminal()) { stopped = "game over"; break; }
    if (match.state().current_player() != player) { stopped = "player changed"; break; }
    if (n == limits_.max_opponent_actions) {
      stopped = fmt::format("{} actions, the most one request plays", n);
      break;
    }
    if (match.position() >= limits_.max_log_entries) { stopped = "the game's log is full"; break; }
    const std::uint64_t position = match.position();
    Rng rng(slot.opponent_seed ^ (0x9E3779B97F4A7C15ULL * (position + 1)));
    const std::optional<Json> action = type.opponent(match.state(), rng);
    if (!action) { stopped = "no action"; break; }
    Json out = outcome_json(match.play(*action, "opponent"));
    out["action"] = *action;
    out["player"] = player;
    const bool refused = !out["applied"].get<bool>();
    actions.push_back(std::move(out));
    // An opponent's action always validates (game.hpp); a refusal would
    // repeat for ever, so it ends the request and the log shows it.
    if (refused) { stopped = "the opponent's action was refused"; break; }
    if (one) { stopped = "one action"; break; }
  }
  return ok({{"player", player}, {"actions", actions}, {"stopped", stopped}, {"game", view(id, slot)}});
}

}  // namespace referee::server
