#include "api.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <malloc.h>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "boards.hpp"
#include "dice_commitment.hpp"
#include "seat_views.hpp"
#include "seats.hpp"
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

constexpr auto kReplace = Json::error_handler_t::replace;

// The log's header line, without its entries.
std::string header_line(const GameLog& log) {
  GameLog head = log;
  head.entries.clear();
  std::string line = head.to_jsonl();
  if (!line.empty() && line.back() == '\n') line.pop_back();
  return line;
}

std::string entry_line(const LogEntry& e) { return e.to_json().dump(-1, ' ', false, kReplace); }

bool contains(const std::vector<int>& sides, int side) { return std::find(sides.begin(), sides.end(), side) != sides.end(); }

// 503 naming `data`: the store could not keep a change (its reason after `what`).
Response store_refused(const std::string& what, const StoreError& e) {
  Response r = error_response(503, "data", what + e.what());
  r.retry_after = 60;
  return r;
}

// What one `event: game` of a live-update stream says (docs/api.md, "Live
// updates"), with the whole game's entries.
Json game_event(std::uint64_t version, const char* kind, const Match& m, Json entries) {
  const GameState& s = m.state();
  return {{"version", version},         {"kind", kind},
          {"position", m.position()},   {"history_size", m.history_size()},
          {"turn", s.turn()},           {"current_player", s.current_player()},
          {"phase", s.phase()},         {"terminal", s.is_terminal()},
          {"entries", std::move(entries)}};
}

// The event as `viewer` is told it: its entries as that viewer may read them.
std::string event_text(const Game& g, const Json& event, int viewer) {
  const Json* data = &event;
  Json seen;
  if (viewer != kWholeGame) {
    seen = event;
    for (Json& e : seen["entries"]) e = g.entry_view(e, viewer);
    data = &seen;
  }
  return fmt::format("id: {}\nevent: game\ndata: {}\n\n", event.at("version").get<std::uint64_t>(),
                     data->dump(-1, ' ', false, kReplace));
}

// An outcome as `viewer` may read it: its rolls and result go through the
// same view as a log entry's.
Json outcome_for(const Game& g, Json out, int viewer) {
  if (viewer == kWholeGame || !out.value("applied", false)) return out;
  Json seen = g.entry_view({{"seq", 0}, {"action", Json::object()}, {"rolls", out["rolls"]}, {"result", out["result"]}}, viewer);
  out["rolls"] = seen["rolls"];
  out["result"] = seen["result"];
  return out;
}
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

// A game's id has a seat token's form (seats.hpp): 128 random bits.
std::string random_game_id() { return new_token(); }

Api::Api(const GameRegistry& registry, std::vector<Battle> battles, Limits limits, std::function<std::string()> new_id,
         std::shared_ptr<GameStore> store)
    : registry_(registry), battles_(std::move(battles)), limits_(limits),
      budgets_({limits_.engine_seconds_burst, limits_.engine_seconds_per_second, limits_.games_burst_per_client,
                limits_.games_per_second_per_client, limits_.max_stored_bytes_per_client}),
      store_(std::move(store)),
      games_(registry_,
             {limits_.max_games, limits_.max_games_per_client, limits_.max_memory_bytes, limits_.max_game_bytes,
              limits_.snapshot_bytes_per_entry, limits_.max_snapshot_interval},
             std::move(new_id), store_),
      channels_(limits_.max_streams_per_client) {
  if (battles_.empty()) throw std::logic_error("the web board needs at least one battle to open on");
}

Api::~Api() = default;

std::size_t Api::game_count() const { return games_.count(); }

std::size_t Api::memory_estimate() const { return games_.memory_estimate(); }

namespace {

Response too_much(const ClientBudgets::Refusal& refusal) {
  Response r = error_response(429, "client", refusal.problem);
  r.retry_after = refusal.retry_after;
  return r;
}

}  // namespace

std::optional<Response> Api::admit(const std::string& client) {
  if (auto refused = budgets_.admit(client)) return too_much(*refused);
  return std::nullopt;
}

std::optional<Response> Api::take_new_game(const std::string& client) {
  if (auto refused = budgets_.take_new_game(client)) return too_much(*refused);
  return std::nullopt;
}

std::optional<Response> Api::charge_store(const std::string& client, std::uint64_t bytes) {
  if (!store_) return std::nullopt;
  if (auto refused = budgets_.charge_store(client, bytes)) return too_much(*refused);
  return std::nullopt;
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
  budgets_.charge_engine(request.client, thread_cpu_seconds() - start);
  // Games pushed out of memory free what they held, but glibc keeps freed
  // pages in its arenas (one per thread that allocated): without this, a
  // server reloading games from the store grew to twice its cap on games
  // held and stayed there (tests/support/serve_probe.cpp, "reloads").
  if (games_.take_trim_wanted()) ::malloc_trim(0);
  return r;
}

// Every route of the API (docs/api.md), in the order a path is matched: the
// first pattern a path matches is its route, and that pattern's rows give
// its methods. "games/import" comes before "games/*" for that reason.
const Api::Route Api::kRoutes[] = {
    {"systems", "GET", &Api::systems_route},
    {"battles/**", "GET", &Api::battles_route},
    {"rules/*", "GET", &Api::rules_route},
    {"rules/*/*", "GET", &Api::rules_route},
    {"games", "POST", &Api::create_route},
    {"games/import", "POST", &Api::import_route},
    {"games/*", "GET", nullptr, &Api::view_route},
    {"games/*", "DELETE", nullptr, &Api::delete_route},
    {"games/*/replay/*", "GET", nullptr, &Api::replay_route},
    {"games/*/entries/*", "GET", nullptr, &Api::entries_route},
    {"games/*/validate", "POST", nullptr, &Api::validate_route},
    {"games/*/apply", "POST", nullptr, &Api::apply_route},
    {"games/*/chance", "POST", nullptr, &Api::chance_route},
    {"games/*/opponent", "POST", nullptr, &Api::opponent_route},
    {"games/*/players", "POST", nullptr, &Api::players_route},
    {"games/*/sample", "POST", nullptr, &Api::sample_route},
    {"games/*/query", "POST", nullptr, &Api::query_route},
    {"games/*/undo", "POST", nullptr, &Api::undo_route},
    {"games/*/redo", "POST", nullptr, &Api::redo_route},
    {"games/*/join", "POST", nullptr, &Api::join_route},
    {"games/*/legal-actions", "GET", nullptr, &Api::legal_actions_route},
    {"games/*/queries", "GET", nullptr, &Api::queries_route},
    {"games/*/log", "GET", nullptr, &Api::log_route},
    {"games/*/events", "GET", nullptr, &Api::events_route},
};

namespace {

// Whether the path's segments match a route's pattern (Api::Route).
bool matches(std::string_view pattern, const std::vector<std::string>& parts) {
  const std::vector<std::string> want = split_path(pattern);
  for (std::size_t k = 0; k < want.size(); ++k) {
    if (want[k] == "**") return k + 1 == want.size();
    if (k >= parts.size() || (want[k] != "*" && want[k] != parts[k])) return false;
  }
  return want.size() == parts.size();
}

// The path's segments after /api/, or nothing when it is no path of the
// API (outside /api/, or with an empty or dot segment).
std::optional<std::vector<std::string>> api_parts(std::string_view path) {
  if (path.rfind("/api/", 0) != 0) return std::nullopt;
  std::vector<std::string> parts = split_path(path.substr(5));
  for (const std::string& p : parts)
    if (p.empty() || p == "." || p == "..") return std::nullopt;
  return parts;
}

}  // namespace

std::string Api::allowed_methods(std::string_view path) {
  const auto parts = api_parts(path);
  if (!parts) return "";
  std::string_view pattern;
  std::string allow;
  for (const Route& r : kRoutes) {
    if (pattern.empty() && matches(r.pattern, *parts)) pattern = r.pattern;
    if (pattern.empty() || r.pattern != pattern) continue;
    if (!allow.empty()) allow += ", ";
    // Every route that answers GET answers HEAD.
    allow += r.method == "GET" ? "GET, HEAD" : std::string(r.method);
  }
  return allow;
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
  const std::vector<std::string> parts = *api_parts(request.path);
  const Route* found = nullptr;
  for (const Route& r : kRoutes)
    if (r.method == m && matches(r.pattern, parts)) {
      found = &r;
      break;
    }
  if (found->plain) return (this->*found->plain)(request, parts);
  const std::string& id = parts[1];
  auto slot = games_.find(id);
  if (!slot)
    return error_response(404, "game", store_ ? "no game with this id on this server (it was never made here, or was deleted)"
                                              : "no game with this id (this server keeps games in memory only "
                                                "(--data :memory:), and a restart forgets them)");
  return (this->*found->game)({id, slot, request, parts});
}

Response Api::systems_route(const Request&, const std::vector<std::string>&) {
  Json out = Json::array();
  for (const GameType& t : registry_.types()) {
    Json q = Json::array();
    for (const QueryInfo& qi : t.queries) q.push_back(to_json_value(qi));
    out.push_back({{"name", t.name}, {"title", t.title}, {"summary", t.summary}, {"opponent", static_cast<bool>(t.opponent)},
                   {"queries", q}, {"board", board_module(t.name)}});
  }
  return ok(out);
}

Response Api::create_route(const Request& request, const std::vector<std::string>&) {
  return create_game(body_object(request.body), request.client);
}

Response Api::import_route(const Request& request, const std::vector<std::string>&) {
  return import_log(request.body, request.client);
}

Response Api::battles_route(const Request&, const std::vector<std::string>& parts) {
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

Response Api::rules_route(const Request&, const std::vector<std::string>& parts) {
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
  r.allow_only({"battle", "system", "scenario", "seed", "dice", "settings", "opponent_sides", "seats"});
  Json settings = Json::object();
  if (auto s = r.find("settings")) {
    s->require_object();
    settings = s->json();
  }
  // Secret dice unless the creator fixes the seed or scripts the dice
  // (docs/api.md, "The dice"): a seed from the operating system, so that
  // no two games share their dice and nobody can predict a roll.
  const bool fixed_seed = r.has("seed") || r.has("dice");
  const DiceSource dice{r.has("seed") ? seed_from(r) : random_seed(), dice_script_from(r)};
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
  if (auto refused = take_new_game(client)) return *refused;
  auto match = std::make_unique<Match>(game, dice, name, settings);
  std::vector<int> sides;
  if (auto s = r.find("opponent_sides")) sides = opponent_sides_from(*s, *match);
  // The sides the creator takes (docs/api.md, "Seats"): every side the
  // built-in opponent does not play unless `seats` names fewer; a side
  // neither taken nor the opponent's gets an invitation.
  const int players = static_cast<int>(match->game().players().size());
  std::vector<int> taken;
  if (auto s = r.find("seats")) {
    s->require_array();
    for (const JsonReader& side : s->items()) {
      const int k = side.as_integer(0, players - 1);
      if (contains(taken, k)) side.fail(fmt::format("side {} is named twice", k));
      if (contains(sides, k))
        side.fail(fmt::format("side {} is played by the built-in opponent (opponent_sides)", k));
      taken.push_back(k);
    }
  } else {
    for (int k = 0; k < players; ++k)
      if (!contains(sides, k)) taken.push_back(k);
  }
  auto [id, slot] = games_.add(std::move(match), name, client);
  if (!slot) return error_response(413, "scenario", "this battle needs more memory than one game may have here");
  std::lock_guard lock(slot->mutex);
  slot->opponent_sides = std::move(sides);
  slot->fixed_seed = fixed_seed;
  if (!fixed_seed) {
    slot->salt = random_salt();
    // The opponent's choices get a secret seed of their own: the dice's
    // stays the dice's alone.
    slot->opponent_seed = random_seed();
  }
  Json tokens = Json::array(), invitations = Json::array();
  slot->seats.resize(static_cast<std::size_t>(players));
  for (int k = 0; k < players; ++k) {
    Seat& seat = slot->seats[static_cast<std::size_t>(k)];
    if (contains(taken, k)) {
      seat.token = new_token();
      tokens.push_back({{"side", k}, {"token", seat.token}});
    } else if (!contains(slot->opponent_sides, k)) {
      seat.invite = new_token();
      invitations.push_back({{"side", k}, {"token", seat.invite}});
    }
  }
  return persist_new(id, *slot, {{"seat_tokens", tokens}, {"invitations", invitations}});
}

Response Api::persist_new(const std::string& id, Slot& slot, Json extra) {
  const Match& m = *slot.match;
  if (store_) {
    {
      std::lock_guard lock(expiry_mutex_);
      if (std::chrono::steady_clock::now() >= next_expiry_) {
        next_expiry_ = std::chrono::steady_clock::now() + std::chrono::hours(24);
        try {
          store_->expire();
        } catch (const StoreError&) {
          // A store that cannot delete now tries again tomorrow.
        }
      }
    }
    StoredGame g;
    g.id = id;
    g.system = m.game().system();
    g.battle = slot.battle;
    g.header = header_line(m.log());
    g.meta = meta_json(slot);
    std::uint64_t bytes = g.header.size() + g.meta.size();
    for (const LogEntry& e : m.log().entries) {
      g.entries.push_back(entry_line(e));
      bytes += g.entries.back().size();
    }
    g.position = m.position();
    g.version = slot.version;
    if (auto refused = charge_store(slot.client, bytes)) {
      games_.erase(id);
      return *refused;
    }
    try {
      store_->create(g);
    } catch (const StoreError& e) {
      games_.erase(id);
      return store_refused("the game could not be stored: ", e);
    }
  }
  std::vector<int> you;
  for (std::size_t k = 0; k < slot.seats.size(); ++k)
    if (!slot.seats[k].token.empty()) you.push_back(static_cast<int>(k));
  Json out = view(id, slot, you);
  for (auto& [k, v] : extra.items()) out[k] = v;
  return json_response(201, out);
}

Response Api::import_log(const std::string& body, const std::string& client) {
  const GameLog log = GameLog::parse_jsonl(body, "log");
  if (log.entries.size() > limits_.max_log_entries)
    throw InputError("log", fmt::format("{} entries is more than the {} a game may hold here", log.entries.size(),
                                        limits_.max_log_entries));
  if (log.battle.is_null()) throw InputError("log", "the log's header carries no battle, so it cannot be replayed here");
  // A finished game's log with secret dice: its seed must be the one committed to.
  check_dice_commitment(log, "log");
  if (auto refused = take_new_game(client)) return *refused;
  // The replay keeps the states a stored game would (Slot's snapshot
  // interval), and gives up past Limits::import_seconds.
  const double start = thread_cpu_seconds();
  std::vector<int> actors;
  const auto watch = games_.replay_watcher(actors);
  auto each_entry = [&](Match& m) {
    watch(m);
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
  auto [id, slot] = games_.add(std::move(match), name, client);
  if (!slot) return error_response(413, "log", "this game needs more memory than one game may have here");
  std::lock_guard lock(slot->mutex);
  slot->actors = std::move(actors);
  // The importer holds every side.
  Json tokens = Json::array();
  slot->seats.resize(slot->match->game().players().size());
  for (std::size_t k = 0; k < slot->seats.size(); ++k) {
    slot->seats[k].token = new_token();
    tokens.push_back({{"side", k}, {"token", slot->seats[k].token}});
  }
  return persist_new(id, *slot, {{"seat_tokens", tokens}, {"invitations", Json::array()}});
}

Json Api::view(const std::string& id, const Slot& slot, const std::vector<int>& you) const {
  const Match& m = *slot.match;
  const GameState& s = m.state();
  const int viewer = viewer_of(m, you);
  Json players = m.game().players();
  Json seats = Json::array();
  const Json presence = channels_.presence(id, players.size());
  for (std::size_t k = 0; k < players.size(); ++k) {
    const bool opponent = contains(slot.opponent_sides, static_cast<int>(k));
    const Seat* seat = k < slot.seats.size() ? &slot.seats[k] : nullptr;
    seats.push_back({{"side", k},
                     {"held", seat != nullptr && !seat->token.empty()},
                     {"invited", seat != nullptr && !seat->invite.empty()},
                     {"opponent", opponent},
                     {"connected", presence["connected"][k]}});
  }
  return {{"id", id},
          {"version", slot.version},
          {"seats", seats},
          {"you", you},
          {"spectators", presence["spectators"]},
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
          // A finished game's secret dice are revealed: it is not taken back (undo_route).
          {"can_undo", m.can_undo() && !(s.is_terminal() && !slot.fixed_seed)},
          {"can_redo", m.can_redo()},
          {"dice", dice_json(slot)},
          {"opponent_sides", slot.opponent_sides},
          {"scenario", m.game().scenario()},
          // What this request's seats may know (docs/api.md, "What each viewer sees").
          {"information", to_string(m.game().information())},
          {"state", state_for(s, viewer)},
          // What the board offers next, so that an action is one round trip;
          // where the rules hide cards, to the player to play alone.
          {"legal_actions", s.is_terminal() || question_refusal(m, viewer) ? Json::array() : Json(s.legal_actions())}};
}

Json Api::dice_json(const Slot& slot) {
  const Match& m = *slot.match;
  Json d{{"scripted", m.dice_source().script.has_value()}, {"fixed", slot.fixed_seed}};
  if (!slot.fixed_seed) {
    d["commitment"] = dice_commitment(m.dice_source().seed, slot.salt);
    d["salt"] = seed_secret(slot) ? Json(nullptr) : Json(slot.salt);
  }
  d["seed"] = seed_secret(slot) ? Json(nullptr) : Json(m.dice_source().seed);
  return d;
}

GameLog Api::served_log(const Slot& slot) {
  GameLog log = slot.match->current_log();
  if (!slot.fixed_seed) commit_log_header(log, slot.salt, seed_secret(slot));
  return log;
}

Response Api::view_route(const GameRequest& call) {
  std::lock_guard lock(call.slot->mutex);
  return ok(view(call.id, *call.slot, held_sides(call.slot->seats, call.request.seat)));
}

Response Api::delete_route(const GameRequest& call) {
  const std::string& id = call.id;
  {
    std::lock_guard lock(call.slot->mutex);
    if (held_sides(call.slot->seats, call.request.seat).empty())
      return error_response(403, "seat", "only a player of this game may delete it; this request holds no seat of it");
  }
  if (store_) {
    try {
      store_->remove(id);
    } catch (const StoreError& e) {
      return store_refused("the game could not be deleted: ", e);
    }
  }
  games_.erase(id);
  return ok({{"deleted", id}});
}

namespace {
// A step of the game named in a path (GET .../replay/{step}, .../entries/{from}):
// digits, from 0 to `last`; else 400 naming `field`.
std::size_t step_in(const std::string& text, std::size_t last, const char* field) {
  const bool digits = !text.empty() && text.size() <= 9 && text.find_first_not_of("0123456789") == std::string::npos;
  if (!digits || std::stoul(text) > last)
    throw InputError(field, fmt::format("expected a step from 0 to {}, got \"{}\"", last, text));
  return std::stoul(text);
}
}  // namespace

Response Api::replay_route(const GameRequest& call) {
  Slot& slot = *call.slot;
  std::lock_guard lock(slot.mutex);
  const std::size_t last = slot.match->position();
  const std::size_t step = step_in(call.parts[3], last, "step");
  const auto state = slot.match->state_at(step);
  const GameState& s = *state;
  const int viewer = request_viewer(slot, call.request);
  Json entry = step == 0 ? Json(nullptr) : Json(slot.match->log().entries[step - 1].action);
  return ok({{"step", step}, {"steps", last}, {"turn", s.turn()}, {"current_player", s.current_player()},
             {"phase", s.phase()}, {"action", entry}, {"state", state_for(s, viewer)}});
}

// The log's entries from a step on, at most kMaxEntriesAnswered: what the
// board's log shows, without the whole log (which GET .../log gives).
Response Api::entries_route(const GameRequest& call) {
  Slot& slot = *call.slot;
  std::lock_guard lock(slot.mutex);
  const std::size_t last = slot.match->position();
  const std::size_t from = step_in(call.parts[3], last, "from");
  const std::size_t to = std::min(last, from + kMaxEntriesAnswered);
  const int viewer = request_viewer(slot, call.request);
  return ok({{"from", from}, {"to", to}, {"position", last}, {"entries", entries_for(*slot.match, from, to, viewer)}});
}

Json Api::action_of(const std::string& body) {
  const Json j = body_object(body);
  JsonReader r(j, "");
  r.allow_only({"action"});
  return r.at("action").json();
}

int Api::request_viewer(const Slot& slot, const Request& request) {
  return viewer_of(*slot.match, held_sides(slot.seats, request.seat));
}

std::optional<Response> Api::refuse_question(const Slot& slot, const Request& request) {
  if (auto problem = question_refusal(*slot.match, request_viewer(slot, request)))
    return error_response(403, "seat", *problem);
  return std::nullopt;
}

Response Api::validate_route(const GameRequest& call) {
  std::lock_guard lock(call.slot->mutex);
  if (auto refused = refuse_question(*call.slot, call.request)) return *refused;
  const Json action = action_of(call.request.body);
  Json v = call.slot->match->state().validate(action, "action");
  return ok({{"legal", v.value("legal", false)}, {"violations", v.value("violations", Json::array())}});
}

Response Api::chance_route(const GameRequest& call) {
  std::lock_guard lock(call.slot->mutex);
  if (auto refused = refuse_question(*call.slot, call.request)) return *refused;
  const Json action = action_of(call.request.body);
  const Chances chances = call.slot->match->state().chance_outcomes(action, "action");
  Json out = Json::array();
  for (const ChanceOutcome& c : chances.outcomes) out.push_back(to_json_value(c));
  Json answer{{"kind", to_string(chances.kind)}, {"outcomes", out}};
  if (!chances.why.empty()) answer["why"] = chances.why;
  return ok(answer);
}

Response Api::apply_route(const GameRequest& call) {
  const std::string& id = call.id;
  Slot& slot = *call.slot;
  std::lock_guard lock(slot.mutex);
  Match& match = *slot.match;
  const Json action = action_of(call.request.body);
  // Only the current player's seat acts (docs/api.md, "Seats").
  const std::vector<int> you = held_sides(slot.seats, call.request.seat);
  const int player = match.state().current_player();
  if (match.state().is_terminal())
    return error_response(409, "game", "the game is over: " + match.state().result().value("reason", std::string()));
  // A side the built-in opponent plays takes its actions from the
  // opponent route alone, whoever holds its old seat.
  if (contains(slot.opponent_sides, player))
    return error_response(403, "seat", fmt::format("{} is played by the built-in opponent: its actions come from "
                                                   "POST .../opponent, not from a player",
                                                   side_words(match, player)));
  if (auto refused = refuse_unless_held(slot, you, player, "act")) return *refused;
  if (auto refused = refuse_if_full(slot)) return *refused;
  const std::size_t before = match.position();
  Json out = outcome_json(match.play(action, "action"));
  if (auto failed = commit_play(id, slot, player, before)) return *failed;
  games_.account(slot);
  const int viewer = viewer_of(match, you);
  out = outcome_for(match.game(), std::move(out), viewer);
  out["entries"] = entries_for(match, before, match.position(), viewer);
  out["game"] = view(id, slot, you);
  return ok(out);
}

Response Api::legal_actions_route(const GameRequest& call) {
  std::lock_guard lock(call.slot->mutex);
  if (auto refused = refuse_question(*call.slot, call.request)) return *refused;
  return ok({{"actions", call.slot->match->state().legal_actions()}});
}

Response Api::sample_route(const GameRequest& call) {
  std::lock_guard lock(call.slot->mutex);
  if (auto refused = refuse_question(*call.slot, call.request)) return *refused;
  const Json j = body_object(call.request.body);
  JsonReader r(j, "");
  r.allow_only({"seed"});
  Rng rng(seed_from(r));
  auto a = call.slot->match->state().sample_action(rng);
  return ok({{"action", a ? *a : Json(nullptr)}});
}

Response Api::queries_route(const GameRequest& call) {
  std::lock_guard lock(call.slot->mutex);
  Json out = Json::array();
  for (const QueryInfo& q : call.slot->match->game().queries()) out.push_back(to_json_value(q));
  return ok(out);
}

Response Api::query_route(const GameRequest& call) {
  std::lock_guard lock(call.slot->mutex);
  if (auto refused = refuse_question(*call.slot, call.request)) return *refused;
  const Json j = body_object(call.request.body);
  JsonReader r(j, "");
  r.allow_only({"name", "args"});
  const std::string name = r.string("name");
  const Json args = r.has("args") ? j["args"] : Json::object();
  return ok(call.slot->match->state().query(name, args, "args"));
}

Response Api::log_route(const GameRequest& call) {
  std::lock_guard lock(call.slot->mutex);
  const Match& m = *call.slot->match;
  return {200, "application/x-ndjson",
          log_for(m.game(), served_log(*call.slot), request_viewer(*call.slot, call.request))};
}

std::optional<Response> Api::refuse_unless_held(const Slot& slot, const std::vector<int>& held, int side,
                                                const std::string& what) {
  if (auto problem = unless_held(*slot.match, held, side, what)) return error_response(403, "seat", *problem);
  return std::nullopt;
}

std::optional<Response> Api::commit(const std::string& id, Slot& slot, const char* kind, std::size_t keep, bool meta) {
  const Match& m = *slot.match;
  if (store_) {
    GameChange c;
    c.id = id;
    c.keep = keep;
    std::uint64_t bytes = 0;
    for (std::size_t k = keep; k < m.log().entries.size(); ++k) {
      c.append.push_back(entry_line(m.log().entries[k]));
      bytes += c.append.back().size();
    }
    c.position = m.position();
    c.version = slot.version + 1;
    if (meta) c.meta = meta_json(slot);
    if (c.meta) bytes += c.meta->size();
    // What memory holds is now ahead of what is kept: a change not written
    // drops it, so that the next request serves the last good state.
    auto forget = [&] { games_.forget(id, slot); };
    // Charged to the game's creator: one address's games share one part of the store.
    if (auto refused = charge_store(slot.client, bytes)) {
      forget();
      return *refused;
    }
    try {
      store_->save(c);
    } catch (const StoreError& e) {
      forget();
      return store_refused("this change was not kept, and the game stays as it was: ", e);
    }
  }
  ++slot.version;
  Json event = game_event(slot.version, kind, m, entries_for(m, keep, m.position(), kWholeGame));
  // Each viewer is told what its seats may see of the change.
  std::map<int, std::string> texts;  // by viewer: a game that hides nothing is written once for all
  channels_.publish(id, [&](const std::vector<int>& sides) {
    const int viewer = viewer_of(m, sides);
    auto it = texts.find(viewer);
    if (it == texts.end()) it = texts.emplace(viewer, event_text(m.game(), event, viewer)).first;
    return it->second;
  });
  slot.recent.emplace_back(slot.version, std::move(event));
  if (slot.recent.size() > limits_.recent_events) slot.recent.erase(slot.recent.begin());
  return std::nullopt;
}

std::optional<Response> Api::commit_play(const std::string& id, Slot& slot, int player, std::size_t before) {
  slot.actors.resize(before);
  slot.actors.push_back(player);
  // The meta says whether the seed is still secret (an export reads it), so
  // it is written again when the game ends.
  const bool ended = slot.match->state().is_terminal();
  return commit(id, slot, "play", before, ended && !slot.fixed_seed);
}

// Live updates: Server-Sent Events, from the current version (or, resuming,
// the events after Last-Event-ID when the game still has them).
Response Api::events_route(const GameRequest& call) {
  const std::string& id = call.id;
  const std::shared_ptr<Slot>& slot = call.slot;
  const Request& request = call.request;
  if (request.method == "HEAD") return {200, "text/event-stream", ""};
  std::optional<std::uint64_t> last;
  if (!request.last_event_id.empty()) {
    const std::string& t = request.last_event_id;
    if (t.size() > 19 || t.find_first_not_of("0123456789") != std::string::npos)
      throw InputError("Last-Event-ID", "expected the version of the last event seen, in digits");
    last = std::stoull(t);
  }
  auto stream = std::make_shared<EventStream>(limits_.max_event_backlog);
  std::uint64_t serial = 0;
  {
    std::lock_guard lock(slot->mutex);
    const std::vector<int> you = held_sides(slot->seats, request.seat);
    const Match& m = *slot->match;
    const int viewer = viewer_of(m, you);
    std::string start = "retry: 1000\n\n";
    if (!last || *last != slot->version) {
      const bool resumable = last && *last < slot->version && !slot->recent.empty() && slot->recent.front().first <= *last + 1;
      if (resumable) {
        for (const auto& [v, event] : slot->recent)
          if (v > *last) start += event_text(m.game(), event, viewer);
      } else {
        start += event_text(m.game(), game_event(slot->version, "sync", m, Json::array()), viewer);
      }
    }
    stream->push(start);
    const auto added = channels_.add(id, slot->match->game().players().size(), stream, you, request.client);
    if (!added)
      return error_response(429, "client", fmt::format("this address has {} live-update streams open, the most it may; "
                                                       "close a board first", limits_.max_streams_per_client));
    serial = *added;
  }
  channels_.announce(id, *stream, serial);
  Response r{200, "text/event-stream", ""};
  r.stream = std::move(stream);
  return r;
}

// Joining by an invitation (X-Referee-Invite) takes its side's seat: the
// answer carries the seat's token, and the invitation is used up.
Response Api::join_route(const GameRequest& call) {
  const std::string& id = call.id;
  Slot& slot = *call.slot;
  const Request& request = call.request;
  const Json j = body_object(request.body);
  JsonReader r(j, "");
  r.allow_only({"side"});
  const std::string invite(request.invite.find_first_not_of(" \t") == std::string::npos ? std::string()
                                                                                         : request.invite);
  if (invite.empty())
    return error_response(403, "invite", "send the invitation's token in the X-Referee-Invite header");
  if (!is_token(invite)) throw InputError("X-Referee-Invite", "expected an invitation's token, 32 hex digits");
  std::lock_guard lock(slot.mutex);
  const int players = static_cast<int>(slot.seats.size());
  const int wanted = r.has("side") ? r.at("side").as_integer(0, players - 1) : -1;
  for (int k = 0; k < players; ++k) {
    Seat& seat = slot.seats[static_cast<std::size_t>(k)];
    if (same_token(invite, seat.used_invite))
      return error_response(409, "invite", fmt::format("this invitation has been used: {} has joined already",
                                                       side_words(*slot.match, k)));
    if (!same_token(invite, seat.invite)) continue;
    if (wanted >= 0 && wanted != k) r.fail("side", fmt::format("this invitation is for side {}", k));
    seat.token = new_token();
    seat.used_invite = seat.invite;
    seat.invite.clear();
    const std::size_t size = slot.match->log().entries.size();
    if (auto failed = commit(id, slot, "join", size, true)) {
      seat.invite = seat.used_invite;
      seat.used_invite.clear();
      seat.token.clear();
      return *failed;
    }
    return ok({{"side", k}, {"seat_tokens", Json::array({{{"side", k}, {"token", seat.token}}})},
               {"game", view(id, slot, {k})}});
  }
  return error_response(403, "invite", "this is not an invitation to this game");
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

Response Api::undo_route(const GameRequest& call) { return step_route(call.id, *call.slot, true, call.request); }

Response Api::redo_route(const GameRequest& call) { return step_route(call.id, *call.slot, false, call.request); }

// Undo and redo replay the log when the state they step to is not kept
// (Match snapshots), a step at a time, releasing the game's lock every
// Limits::lock_seconds so that other requests on the game go on meanwhile.
// Who may is seats.hpp's undo_refusal.
Response Api::step_route(const std::string& id, Slot& slot, bool undo, const Request& request) {
  const char* what = undo ? "undo" : "redo";
  for (;;) {
    {
      std::lock_guard lock(slot.mutex);
      Match& match = *slot.match;
      const std::vector<int> you = held_sides(slot.seats, request.seat);
      if (you.empty())
        return error_response(403, "seat", std::string("only a player of this game may ") + what +
                                               "; this request holds no seat of it (send it in X-Referee-Seat)");
      if (undo ? !match.can_undo() : !match.can_redo())
        return error_response(409, what, std::string("there is nothing to ") + what);
      const std::size_t entry = undo ? match.position() - 1 : match.position();
      // Secret dice revealed at the end stay revealed: stepping back into
      // the game would let a player replay its rolls from the seed.
      if (undo && !slot.fixed_seed && match.state().is_terminal())
        return error_response(409, what, "the game is over and its dice's seed revealed, so it cannot be taken back "
                                         "(a game with a fixed seed can)");
      if (auto problem = undo_refusal(match, slot.seats, slot.opponent_sides, slot.actors, you, entry, undo))
        return error_response(409, what, *problem);
      const std::size_t target = undo ? match.position() - 1 : match.position() + 1;
      if (match.prepare(target, std::chrono::steady_clock::now() + seconds(limits_.lock_seconds))) {
        undo ? match.undo() : match.redo();
        const std::size_t size = match.log().entries.size();
        if (auto failed = commit(id, slot, what, size, false)) return *failed;
        games_.account(slot);
        return ok(view(id, slot, you));
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
    if (contains(sides, k)) side.fail(fmt::format("side {} is named twice", k));
    sides.push_back(k);
  }
  std::sort(sides.begin(), sides.end());
  return sides;
}

// Who plays each side: POST {"opponent_sides": [1]} has the built-in
// opponent play side 1 from now on (the board then asks it to play when it
// is that side's turn); [] plays every side at the board. Only a player may
// change it, and only for sides nobody else holds: a side given back by the
// opponent with no holder is the asker's, its token in `seat_tokens`; a side
// given to the opponent loses its open invitation.
Response Api::players_route(const GameRequest& call) {
  const std::string& id = call.id;
  Slot& slot = *call.slot;
  const Request& request = call.request;
  const Json j = body_object(request.body);
  JsonReader r(j, "");
  r.allow_only({"opponent_sides"});
  std::lock_guard lock(slot.mutex);
  const std::vector<int> you = held_sides(slot.seats, request.seat);
  if (you.empty())
    return error_response(403, "seat", "only a player of this game may say who plays its sides; this request holds no seat of it");
  const std::vector<int> sides = opponent_sides_from(r.at("opponent_sides"), *slot.match);
  for (std::size_t k = 0; k < slot.seats.size(); ++k) {
    const int side = static_cast<int>(k);
    if (contains(sides, side) != contains(slot.opponent_sides, side) && !slot.seats[k].token.empty() && !contains(you, side))
      return error_response(403, "seat", fmt::format("{} has a player of its own; only they may hand it to the "
                                                     "built-in opponent",
                                                     side_words(*slot.match, side)));
  }
  const std::vector<Seat> before_seats = slot.seats;
  const std::vector<int> before_sides = slot.opponent_sides;
  Json tokens = Json::array();
  std::vector<int> held = you;
  for (std::size_t k = 0; k < slot.seats.size(); ++k) {
    const int side = static_cast<int>(k);
    Seat& seat = slot.seats[k];
    if (contains(sides, side)) {
      seat.invite.clear();
    } else if (contains(slot.opponent_sides, side) && seat.token.empty()) {
      seat.token = new_token();
      tokens.push_back({{"side", side}, {"token", seat.token}});
      held.push_back(side);
    }
  }
  std::sort(held.begin(), held.end());
  slot.opponent_sides = sides;
  const std::size_t size = slot.match->log().entries.size();
  if (auto failed = commit(id, slot, "players", size, true)) {
    slot.seats = before_seats;
    slot.opponent_sides = before_sides;
    return *failed;
  }
  Json out = view(id, slot, held);
  out["seat_tokens"] = tokens;
  return ok(out);
}

// The built-in opponent plays the current player's actions through the
// Match, as /apply does (logged, rolled with the game's dice, undoable).
// Each choice is drawn with an Rng seeded from the game's seed and the log
// position it is made at: the same game asks the same questions and gets
// the same answers, after an undo as on a replay. The game's lock is held
// for one action at a time, and the request stops after
// Limits::opponent_seconds (the board asks again while it is the
// opponent's turn). A player asks it for a side it plays, or for their own
// side (a move made for them); a spectator may not.
Response Api::opponent_route(const GameRequest& call) {
  const std::string& id = call.id;
  Slot& slot = *call.slot;
  const Request& request = call.request;
  const Json j = body_object(request.body);
  JsonReader r(j, "");
  r.allow_only({"until"});
  const bool one = r.one_of_or("until", {"action", "player"}, "player") == "action";
  const GameType& type = registry_.at(slot.match->game().system(), "system");
  if (!type.opponent)
    return error_response(409, "system", type.title + " has no built-in opponent here; play both sides (hot-seat)");
  const auto deadline = std::chrono::steady_clock::now() + seconds(limits_.opponent_seconds);
  int player = -1;
  std::size_t start = 0;
  std::vector<int> you;
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
      you = held_sides(slot.seats, request.seat);
      if (you.empty())
        return error_response(403, "seat", "only a player of this game may ask the built-in opponent to play; "
                                           "this request holds no seat of it");
      if (!contains(slot.opponent_sides, player))
        if (auto refused = refuse_unless_held(slot, you, player, "have the built-in opponent play for it")) return *refused;
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
    const std::size_t before = match.position();
    Json out = outcome_json(match.play(*action, "opponent"));
    if (auto failed = commit_play(id, slot, player, before)) return *failed;
    games_.account(slot);
    out = outcome_for(match.game(), std::move(out), viewer_of(match, you));
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
             {"entries", entries_for(*slot.match, start, slot.match->position(), viewer_of(*slot.match, you))},
             {"game", view(id, slot, you)}});
}

}  // namespace referee::server
