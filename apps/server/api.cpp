#include "api.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <random>
#include <stdexcept>
#include <thread>

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

// CPU time of the calling thread: what a request costs the machine, not
// the time it waited for a lock.
double thread_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

std::chrono::steady_clock::duration seconds(double s) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(s));
}

// An import that takes longer than Limits::import_seconds to replay.
struct TooLong {};

// A game as loaded is estimated at this many times its battle's JSON text
// (measured: a Warmaster battle of 1,000 units, 390 kB of JSON, loads into
// 5.3 MB; a Blightmeer battle at its caps, 990 kB, into 20 MB), and each kept
// state at one and a half times its JSON text (measured: 14 kB per entry
// against 9 kB of JSON on the bundled pitched battle, 210 kB against 570 kB
// on the 1,000-unit battle). Estimates, for the store's limits;
// docs/architecture.md, "History".
std::size_t json_bytes(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace).size(); }

constexpr std::size_t kLoadBytesPerJsonByte = 24;
std::size_t state_bytes(const GameState& s) { return json_bytes(s.to_json()) * 3 / 2; }

}  // namespace

bool method_listed(std::string_view allow, std::string_view method) {
  for (std::size_t start = 0; start < allow.size();) {
    const std::size_t end = std::min(allow.find(", ", start), allow.size());
    if (allow.substr(start, end - start) == method) return true;
    start = end + 2;
  }
  return false;
}

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

std::optional<Response> Api::admit(const std::string& client) {
  std::lock_guard lock(budget_mutex_);
  auto it = budgets_.find(client);
  if (it == budgets_.end()) return std::nullopt;
  Budget& b = it->second;
  const auto now = std::chrono::steady_clock::now();
  b.seconds = std::min(limits_.engine_seconds_burst,
                       b.seconds + limits_.engine_seconds_per_second * std::chrono::duration<double>(now - b.at).count());
  b.at = now;
  if (b.seconds > 0) return std::nullopt;
  const double wait = limits_.engine_seconds_per_second > 0 ? -b.seconds / limits_.engine_seconds_per_second + 1 : 3600;
  Response r = error_response(429, "client", fmt::format("this address has used the engine time it may use for now "
                                                         "({:.0f} s at most, refilled at {} s a second); ask again later",
                                                         limits_.engine_seconds_burst, limits_.engine_seconds_per_second));
  r.retry_after = static_cast<int>(std::min(3600.0, std::ceil(wait)));
  return r;
}

void Api::charge(const std::string& client, double spent) {
  std::lock_guard lock(budget_mutex_);
  const auto now = std::chrono::steady_clock::now();
  auto [it, fresh] = budgets_.try_emplace(client, Budget{limits_.engine_seconds_burst, now});
  Budget& b = it->second;
  b.seconds = std::min(limits_.engine_seconds_burst,
                       b.seconds + limits_.engine_seconds_per_second * std::chrono::duration<double>(now - b.at).count());
  b.at = now;
  b.seconds -= spent;
  // Addresses whose budget is full again need no entry: the map stays as
  // small as the set of clients that have spent recently.
  if (fresh && budgets_.size() > 4096)
    for (auto i = budgets_.begin(); i != budgets_.end();) {
      const double refilled = i->second.seconds + limits_.engine_seconds_per_second *
                                                      std::chrono::duration<double>(now - i->second.at).count();
      if (i != it && refilled >= limits_.engine_seconds_burst) i = budgets_.erase(i);
      else ++i;
    }
}

Response Api::handle(const Request& request) {
  if (request.body.size() > limits_.max_body_bytes)
    return error_response(413, "body", fmt::format("{} bytes is more than the {} this server accepts",
                                                   request.body.size(), limits_.max_body_bytes));
  if (auto refused = admit(request.client)) return *refused;
  const double start = thread_cpu_seconds();
  Response r;
  try {
    r = route(request);
  } catch (const InputError& e) {
    r = error_response(400, e.field(), e.problem());
  } catch (const ScriptError& e) {
    r = error_response(400, "dice", e.what());
  } catch (const nlohmann::json::exception& e) {
    r = error_response(400, "body", e.what());
  } catch (const std::bad_alloc&) {
    r = error_response(413, "body", "the request needs more memory than this server has");
  }
  charge(request.client, thread_cpu_seconds() - start);
  return r;
}

std::string Api::allowed_methods(std::string_view path) {
  if (path.rfind("/api/", 0) != 0) return "";
  const std::vector<std::string> parts = split_path(path.substr(5));
  for (const std::string& p : parts)
    if (p.empty() || p == "." || p == "..") return "";
  const std::string& head = parts[0];
  const std::size_t n = parts.size();
  if ((head == "systems" && n == 1) || head == "battles" || (head == "rules" && (n == 2 || n == 3))) return "GET, HEAD";
  if (head != "games") return "";
  if (n == 1 || (n == 2 && parts[1] == "import")) return "POST";
  if (n == 2) return "GET, HEAD, DELETE";
  if (n == 4) return parts[2] == "replay" || parts[2] == "entries" ? "GET, HEAD" : "";
  if (n != 3) return "";
  for (const char* what : {"validate", "apply", "chance", "opponent", "players", "sample", "query", "undo", "redo"})
    if (parts[2] == what) return "POST";
  for (const char* what : {"legal-actions", "queries", "log"})
    if (parts[2] == what) return "GET, HEAD";
  return "";
}

Response Api::route(const Request& request) {
  // HEAD is GET without the body, which the HTTP layer leaves out.
  const std::string m = request.method == "HEAD" ? "GET" : request.method;
  const std::string allow = allowed_methods(request.path);
  if (allow.empty()) return error_response(404, "path", "no such route: " + request.path);
  if (!method_listed(allow, m)) {
    Response r = error_response(405, "method", fmt::format("{} {} is not a route; use {}", request.method, request.path, allow));
    r.allow = allow;
    return r;
  }
  const std::vector<std::string> parts = split_path(std::string_view(request.path).substr(5));
  const std::string& head = parts[0];
  if (head == "systems") {
    Json out = Json::array();
    for (const GameType& t : registry_.types()) {
      Json q = Json::array();
      for (const QueryInfo& qi : t.queries) q.push_back(to_json_value(qi));
      out.push_back({{"name", t.name}, {"title", t.title}, {"summary", t.summary}, {"opponent", static_cast<bool>(t.opponent)},
                     {"queries", q}, {"board", t.board_module}});
    }
    return ok(out);
  }
  if (head == "battles") return battles_route(parts);
  if (head == "rules") return rules_route(parts);
  if (parts.size() == 1) return create_game(body_object(request.body), request.client);
  if (parts[1] == "import") return import_log(request.body, request.client);
  return game_route(m, parts, request.body);
}

Response Api::battles_route(const std::vector<std::string>& parts) {
  if (parts.size() == 1) {
    Json list = Json::array();
    for (const Battle& b : battles_) {
      const GameType* type = registry_.find(b.system);
      const bool opponent = type != nullptr && static_cast<bool>(type->opponent);
      list.push_back({{"id", b.id}, {"system", b.system}, {"title", b.title}, {"opponent", opponent},
                      {"opponent_sides", opponent ? b.opponent_sides : std::vector<int>{}}});
    }
    return ok({{"default", battles_.front().id}, {"battles", list}});
  }
  const std::string id = fmt::format("{}", fmt::join(parts.begin() + 1, parts.end(), "/"));
  for (const Battle& b : battles_)
    if (b.id == id) return ok(b.scenario);
  return error_response(404, "battle", "no bundled battle \"" + id + "\"");
}

Response Api::rules_route(const std::vector<std::string>& parts) {
  const GameType& type = registry_.at(parts[1], "system");
  if (!type.rules) return error_response(404, "system", type.name + " has no rule catalogue");
  const Json all = rules_to_json(type.rules());
  if (parts.size() == 2) return ok(all);
  for (const Json& r : all)
    if (r.value("id", "") == parts[2]) return ok(r);
  return error_response(404, "rule", "no rule \"" + parts[2] + "\" in " + type.name);
}

Response Api::create_game(const Json& body, const std::string& client) {
  JsonReader r(body, "");
  r.allow_only({"battle", "system", "scenario", "seed", "dice", "settings", "opponent_sides"});
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
  std::vector<int> sides;
  if (auto s = r.find("opponent_sides")) sides = opponent_sides_from(*s, *match);
  auto [id, slot] = store(std::move(match), name, client);
  if (!slot) return error_response(413, "scenario", "this battle needs more memory than one game may have here");
  std::lock_guard lock(slot->mutex);
  slot->opponent_sides = std::move(sides);
  return json_response(201, view(id, *slot));
}

Response Api::import_log(const std::string& body, const std::string& client) {
  const GameLog log = GameLog::parse_jsonl(body, "log");
  if (log.entries.size() > limits_.max_log_entries)
    throw InputError("log", fmt::format("{} entries is more than the {} a game may hold here", log.entries.size(),
                                        limits_.max_log_entries));
  if (log.battle.is_null()) throw InputError("log", "the log's header carries no battle, so it cannot be replayed here");
  // The replay keeps the states a stored game would (Slot's snapshot
  // interval), and gives up past Limits::import_seconds.
  const double start = thread_cpu_seconds();
  bool first = true;
  auto each_entry = [&](Match& m) {
    if (first) {
      first = false;
      const std::size_t state = state_bytes(m.state());
      m.set_snapshot_interval(std::clamp<std::size_t>(state / std::max<std::size_t>(1, limits_.snapshot_bytes_per_entry), 1,
                                                      limits_.max_snapshot_interval));
    }
    if (thread_cpu_seconds() - start > limits_.import_seconds) throw TooLong{};
  };
  std::unique_ptr<Match> match;
  try {
    match = std::make_unique<Match>(Match::replay(registry_, log, "log", nullptr, "", each_entry));
  } catch (const TooLong&) {
    return error_response(413, "log", fmt::format("this log takes more than the {} s this server gives a replay; "
                                                  "replay it with referee <system> replay", limits_.import_seconds));
  }
  std::string name = log.scenario.empty() ? "imported log" : log.scenario;
  auto [id, slot] = store(std::move(match), name, client);
  if (!slot) return error_response(413, "log", "this game needs more memory than one game may have here");
  std::lock_guard lock(slot->mutex);
  return json_response(201, view(id, *slot));
}

std::size_t Api::game_bytes(const Slot& slot) const {
  const Match& m = *slot.match;
  return slot.load_bytes + m.snapshots_kept() * slot.state_bytes + m.log_bytes();
}

std::pair<std::string, std::shared_ptr<Api::Slot>> Api::store(std::unique_ptr<Match> match, std::string battle,
                                                              const std::string& client) {
  auto slot = std::make_shared<Slot>();
  slot->opponent_seed = match->dice_source().seed;
  slot->load_bytes = json_bytes(match->game().scenario()) * kLoadBytesPerJsonByte;
  slot->state_bytes = state_bytes(match->state());
  match->set_snapshot_interval(std::clamp<std::size_t>(
      slot->state_bytes / std::max<std::size_t>(1, limits_.snapshot_bytes_per_entry), 1, limits_.max_snapshot_interval));
  slot->match = std::move(match);
  slot->battle = std::move(battle);
  slot->client = client;
  slot->bytes = game_bytes(*slot);
  if (slot->bytes > limits_.max_game_bytes) return {"", nullptr};
  slot->used = std::chrono::steady_clock::now();
  std::lock_guard lock(store_mutex_);
  make_room(client, slot->bytes, true, nullptr);
  std::string id = new_id_();
  while (games_.count(id) != 0) id = new_id_();
  games_.emplace(id, slot);
  return {id, slot};
}

void Api::make_room(const std::string& client, std::size_t extra, bool adding, const Slot* keep) {
  std::size_t total = extra;
  for (const auto& [id, s] : games_) total += s->bytes;
  // The least recently used game of `owner`, or of whichever client holds
  // the most (games, or bytes), leaving `keep` alone.
  auto drop = [&](const std::string* owner, bool by_bytes) {
    std::map<std::string, std::size_t> held;
    for (const auto& [id, s] : games_)
      if (s.get() != keep) held[s->client] += by_bytes ? s->bytes.load() : 1;
    if (held.empty()) return false;
    std::string victim = owner ? *owner : "";
    if (!owner)
      victim = std::max_element(held.begin(), held.end(), [](const auto& a, const auto& b) { return a.second < b.second; })->first;
    auto oldest = games_.end();
    for (auto it = games_.begin(); it != games_.end(); ++it)
      if (it->second.get() != keep && it->second->client == victim &&
          (oldest == games_.end() || it->second->used < oldest->second->used))
        oldest = it;
    if (oldest == games_.end()) return false;
    total -= oldest->second->bytes;
    games_.erase(oldest);
    return true;
  };
  if (adding) {
    std::size_t mine = 0;
    for (const auto& [id, s] : games_) mine += s->client == client;
    for (; mine >= limits_.max_games_per_client && drop(&client, false); --mine) {
    }
    while (games_.size() >= limits_.max_games && drop(nullptr, false)) {
    }
  }
  while (total > limits_.max_memory_bytes && drop(nullptr, true)) {
  }
}

void Api::account(Slot& slot) {
  const std::size_t before = slot.bytes;
  slot.bytes = game_bytes(slot);
  if (slot.bytes <= before) return;
  std::lock_guard lock(store_mutex_);
  make_room(slot.client, 0, false, &slot);
}

std::size_t Api::memory_estimate() const {
  std::lock_guard lock(store_mutex_);
  std::size_t total = 0;
  for (const auto& [id, s] : games_) total += s->bytes;
  return total;
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
          {"opponent_sides", slot.opponent_sides},
          {"scenario", m.game().scenario()},
          {"state", s.to_json()},
          // What the board offers next, so that an action is one round trip.
          {"legal_actions", s.is_terminal() ? Json::array() : Json(s.legal_actions())}};
}

Json Api::entries_json(const Match& m, std::size_t from, std::size_t to) {
  Json out = Json::array();
  for (std::size_t k = from; k < to && k < m.position(); ++k) out.push_back(m.log().entries[k].to_json());
  return out;
}

Response Api::game_route(const std::string& m, const std::vector<std::string>& parts, const std::string& body) {
  auto slot = find_game(parts[1]);
  if (!slot) return error_response(404, "game", "no game with this id (games live in memory, and a restart forgets them)");
  const std::string what = parts.size() >= 3 ? parts[2] : "";

  if (what.empty()) {
    if (m == "DELETE") {
      std::lock_guard lock(store_mutex_);
      games_.erase(parts[1]);
      return ok({{"deleted", parts[1]}});
    }
    std::lock_guard lock(slot->mutex);
    return ok(view(parts[1], *slot));
  }
  if (what == "replay") {
    std::lock_guard lock(slot->mutex);
    const std::string& text = parts[3];
    const bool digits = !text.empty() && text.size() <= 9 && text.find_first_not_of("0123456789") == std::string::npos;
    const std::size_t last = slot->match->position();
    if (!digits || std::stoul(text) > last)
      return error_response(400, "step", fmt::format("expected a step from 0 to {}, got \"{}\"", last, text));
    const std::size_t step = std::stoul(text);
    const auto state = slot->match->state_at(step);
    const GameState& s = *state;
    Json entry = step == 0 ? Json(nullptr) : Json(slot->match->log().entries[step - 1].action);
    return ok({{"step", step}, {"steps", last}, {"turn", s.turn()}, {"current_player", s.current_player()},
               {"phase", s.phase()}, {"action", entry}, {"state", s.to_json()}});
  }
  if (what == "entries") {
    // The log's entries from a step on, at most kMaxEntriesAnswered: what the
    // board's log shows, without the whole log (which GET .../log gives).
    std::lock_guard lock(slot->mutex);
    const std::string& text = parts[3];
    const bool digits = !text.empty() && text.size() <= 9 && text.find_first_not_of("0123456789") == std::string::npos;
    const std::size_t last = slot->match->position();
    if (!digits || std::stoul(text) > last)
      return error_response(400, "from", fmt::format("expected a step from 0 to {}, got \"{}\"", last, text));
    const std::size_t from = std::stoul(text);
    const std::size_t to = std::min(last, from + kMaxEntriesAnswered);
    return ok({{"from", from}, {"to", to}, {"position", last}, {"entries", entries_json(*slot->match, from, to)}});
  }
  if (what == "opponent") return opponent_route(parts[1], *slot, body);
  if (what == "players") return players_route(parts[1], *slot, body);
  if (what == "undo" || what == "redo") return undo_route(parts[1], *slot, what == "undo");

  std::lock_guard lock(slot->mutex);
  Match& match = *slot->match;
  if (what == "validate" || what == "apply" || what == "chance") {
    const Json j = body_object(body);
    JsonReader r(j, "");
    r.allow_only({"action"});
    const Json& action = r.at("action").json();
    if (what == "validate") {
      Json v = match.state().validate(action, "action");
      return ok({{"legal", v.value("legal", false)}, {"violations", v.value("violations", Json::array())}});
    }
    if (what == "chance") {
      const Chances chances = match.state().chance_outcomes(action, "action");
      Json out = Json::array();
      for (const ChanceOutcome& c : chances.outcomes) out.push_back(to_json_value(c));
      Json answer{{"kind", to_string(chances.kind)}, {"outcomes", out}};
      if (!chances.why.empty()) answer["why"] = chances.why;
      return ok(answer);
    }
    if (auto refused = refuse_if_full(*slot)) return *refused;
    const std::size_t before = match.position();
    Json out = outcome_json(match.play(action, "action"));
    account(*slot);
    out["entries"] = entries_json(match, before, match.position());
    out["game"] = view(parts[1], *slot);
    return ok(out);
  }
  if (what == "legal-actions") return ok({{"actions", match.state().legal_actions()}});
  if (what == "sample") {
    const Json j = body_object(body);
    JsonReader r(j, "");
    r.allow_only({"seed"});
    Rng rng(seed_from(r));
    auto a = match.state().sample_action(rng);
    return ok({{"action", a ? *a : Json(nullptr)}});
  }
  if (what == "queries") {
    Json out = Json::array();
    for (const QueryInfo& q : match.game().queries()) out.push_back(to_json_value(q));
    return ok(out);
  }
  if (what == "query") {
    const Json j = body_object(body);
    JsonReader r(j, "");
    r.allow_only({"name", "args"});
    const std::string name = r.string("name");
    const Json args = r.has("args") ? j["args"] : Json::object();
    return ok(match.state().query(name, args, "args"));
  }
  // what == "log": allowed_methods lists no other route.
  return {200, "application/x-ndjson", match.current_log().to_jsonl()};
}

std::optional<Response> Api::refuse_if_full(const Slot& slot) const {
  if (slot.match->position() >= limits_.max_log_entries)
    return error_response(409, "game", fmt::format("this game has reached the {} actions a game may hold here; "
                                                   "save its log and load it into referee play", limits_.max_log_entries));
  if (slot.bytes >= limits_.max_game_bytes)
    return error_response(409, "game", fmt::format("this game's history has reached the {} MiB a game may hold here; "
                                                   "save its log and load it into referee play", limits_.max_game_bytes >> 20));
  return std::nullopt;
}

// Undo and redo replay the log when the state they step to is not kept
// (Match snapshots), a step at a time, releasing the game's lock every
// Limits::lock_seconds so that other requests on the game go on meanwhile.
Response Api::undo_route(const std::string& id, Slot& slot, bool undo) {
  const char* what = undo ? "undo" : "redo";
  for (;;) {
    {
      std::lock_guard lock(slot.mutex);
      Match& match = *slot.match;
      if (undo ? !match.can_undo() : !match.can_redo())
        return error_response(409, what, std::string("there is nothing to ") + what);
      const std::size_t target = undo ? match.position() - 1 : match.position() + 1;
      if (match.prepare(target, std::chrono::steady_clock::now() + seconds(limits_.lock_seconds))) {
        undo ? match.undo() : match.redo();
        account(slot);
        return ok(view(id, slot));
      }
    }
    std::this_thread::yield();
  }
}

std::vector<int> Api::opponent_sides_from(JsonReader r, const Match& match) const {
  r.require_array();
  const std::size_t players = match.game().players().size();
  if (r.size() > 0 && !registry_.at(match.game().system(), "system").opponent)
    r.fail(match.game().system() + " has no built-in opponent here; play both sides (hot-seat) with []");
  std::vector<int> sides;
  for (const JsonReader& side : r.items()) {
    const int k = side.as_integer(0, static_cast<int>(players) - 1);
    if (std::find(sides.begin(), sides.end(), k) != sides.end()) side.fail(fmt::format("side {} is named twice", k));
    sides.push_back(k);
  }
  std::sort(sides.begin(), sides.end());
  return sides;
}

// Who plays each side: POST {"opponent_sides": [1]} has the built-in
// opponent play side 1 from now on (the board then asks it to play when it
// is that side's turn); [] plays every side at the board.
Response Api::players_route(const std::string& id, Slot& slot, const std::string& body) {
  const Json j = body_object(body);
  JsonReader r(j, "");
  r.allow_only({"opponent_sides"});
  std::lock_guard lock(slot.mutex);
  slot.opponent_sides = opponent_sides_from(r.at("opponent_sides"), *slot.match);
  return ok(view(id, slot));
}

// The built-in opponent plays the current player's actions through the
// Match, as /apply does (logged, rolled with the game's dice, undoable).
// Each choice is drawn with an Rng seeded from the game's seed and the log
// position it is made at: the same game asks the same questions and gets
// the same answers, after an undo as on a replay. The game's lock is held
// for one action at a time, and the request stops after
// Limits::opponent_seconds (the board asks again while it is the
// opponent's turn).
Response Api::opponent_route(const std::string& id, Slot& slot, const std::string& body) {
  const Json j = body_object(body);
  JsonReader r(j, "");
  r.allow_only({"until"});
  const bool one = r.one_of_or("until", {"action", "player"}, "player") == "action";
  const GameType& type = registry_.at(slot.match->game().system(), "system");
  if (!type.opponent)
    return error_response(409, "system", type.title + " has no built-in opponent here; play both sides (hot-seat)");
  const auto deadline = std::chrono::steady_clock::now() + seconds(limits_.opponent_seconds);
  int player = -1;
  std::size_t start = 0;
  Json actions = Json::array();
  std::string stopped;
  for (std::size_t n = 0; stopped.empty(); ++n) {
    if (n > 0) std::this_thread::yield();  // let a waiting request on the game have the lock
    std::lock_guard lock(slot.mutex);
    Match& match = *slot.match;
    if (n == 0) {
      if (match.state().is_terminal())
        return error_response(409, "game", "the game is over: " + match.state().result().value("reason", std::string()));
      if (auto refused = refuse_if_full(slot)) return *refused;
      player = match.state().current_player();
      start = match.position();
    }
    if (match.state().is_terminal()) { stopped = "game over"; break; }
    if (match.state().current_player() != player) { stopped = "player changed"; break; }
    if (n == limits_.max_opponent_actions) {
      stopped = fmt::format("{} actions, the most one request plays", n);
      break;
    }
    if (n > 0 && std::chrono::steady_clock::now() >= deadline) { stopped = "time limit"; break; }
    if (refuse_if_full(slot)) {
      stopped = "the game's log is full";
      break;
    }
    const std::uint64_t position = match.position();
    Rng rng(slot.opponent_seed ^ (0x9E3779B97F4A7C15ULL * (position + 1)));
    const std::optional<Json> action = type.opponent(match.state(), rng);
    if (!action) { stopped = "no action"; break; }
    Json out = outcome_json(match.play(*action, "opponent"));
    account(slot);
    out["action"] = *action;
    out["player"] = player;
    const bool refused = !out["applied"].get<bool>();
    actions.push_back(std::move(out));
    // An opponent's action always validates (game.hpp); a refusal would
    // repeat for ever, so it ends the request and the log shows it.
    if (refused) stopped = "the opponent's action was refused";
    else if (one) stopped = "one action";
  }
  std::lock_guard lock(slot.mutex);
  return ok({{"player", player}, {"actions", actions}, {"stopped", stopped},
             {"entries", entries_json(*slot.match, start, slot.match->position())}, {"game", view(id, slot)}});
}

}  // namespace referee::server
