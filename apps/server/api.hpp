// The web board's API: the one game interface (core/game.hpp, core/match.hpp)
// over HTTP, and nothing system-specific beyond the systems' named queries.
//
// Api::handle is a plain function of a request, with no sockets in it, so the
// tests and the fuzz target drive it directly; the HTTP front end
// (http_front.hpp) hands it what a client sent once the request has passed
// the HTTP layer's checks. Every route is documented in docs/api.md.
//
// Safety, for a server that may be exposed on purpose (--host); what the
// HTTP layer adds (Host, Origin, Content-Type, byte and time bounds) is in
// http_front.hpp:
//   - a game is reached only through its id, 128 random bits from the
//     operating system (std::random_device), so one client cannot see
//     another's game without being given its id; acting in it needs a seat's
//     token (X-Referee-Seat, 128 bits too, compared in constant time:
//     seats.hpp): its creator's, or one taken with an invitation. Spectators read (docs/api.md, "Players, seats and live
//     updates");
//   - bodies over Limits::max_body_bytes are refused with 413 before they are
//     parsed, and every body goes through the same strict JSON readers as
//     files (depth-limited, unknown fields refused), answering 400 with the
//     field and the problem;
//   - every change of a game is written to the GameStore (game_store.hpp)
//     before it is answered or told to any viewer; a write the store refuses
//     answers 503 and the game stays as last kept. Memory holds the recent
//     games (game_cache.hpp): each game's memory is estimated; memory holds
//     at most Limits::max_games games and Limits::max_memory_bytes of them,
//     and a client address at most Limits::max_games_per_client: a game that
//     needs room pushes out the least recently used game of its own client
//     first, then of the client holding the most, to be read back from the
//     store when next asked for (without a store, it is gone). A game holds at most
//     Limits::max_log_entries actions and Limits::max_game_bytes;
//   - engine time (client_budgets.hpp, with each address's new games and
//     stored bytes): each client address has a budget of CPU seconds that
//     refills at Limits::engine_seconds_per_second up to
//     Limits::engine_seconds_burst; a client that has spent it gets 429 with
//     Retry-After until it has refilled. No request holds a game's lock for
//     long: the built-in opponent plays one action per hold and stops after
//     Limits::opponent_seconds, undo and redo replay in steps, and a large
//     battle's history keeps only every k-th state (Match snapshots).
//   - live updates (channels.hpp): a client address holds at most
//     Limits::max_streams_per_client streams, each at most
//     Limits::max_event_backlog bytes behind.
// Concurrency: the games held in memory (game_cache.hpp) have one mutex, and
// each game its own, so requests on different games run in parallel and
// requests on one game in turn. A game's mutex may be taken before the
// cache's or the channels' (channels.hpp), never the other way round.
// Viewers are pushed to in the order of the game's changes, which happen
// under its mutex. The routes are one table (Api::kRoutes), which both
// allowed_methods and the dispatch read.
#pragma once

#include <chrono>
#include <atomic>
#include <cstdint>
#include <cstddef>
#include <optional>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "channels.hpp"
#include "client_budgets.hpp"
#include "event_stream.hpp"
#include "game_cache.hpp"
#include "game_store.hpp"
#include "referee/core/json_io.hpp"
#include "referee/core/game.hpp"
#include "referee/core/match.hpp"

namespace referee::server {

using Json = nlohmann::json;

struct Request {
  std::string method;  // "GET", "HEAD", "POST", "DELETE"
  std::string path;    // "/api/games/ab12.../apply", without the query string
  std::string body;
  std::string client = {};  // the client's address: per-client limits count by it
  // Headers the API reads (docs/api.md, "Seats"), as the client sent them:
  std::string seat = {};           // X-Referee-Seat: seat tokens, comma-separated
  std::string invite = {};         // X-Referee-Invite: an invitation's token
  std::string last_event_id = {};  // Last-Event-ID: where a live-update stream resumes
};

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::string allow = {};  // with 405: the route's methods ("GET, HEAD")
  int retry_after = 0;   // seconds, with 429 and 503
  // GET .../events: the live updates to stream after the head, for as long
  // as the client stays (event_stream.hpp); null for every other answer.
  std::shared_ptr<EventStream> stream = {};
};

struct Limits {
  std::size_t max_games = 500;
  std::size_t max_body_bytes = 1 << 20;  // 1 MiB: a battle or a long log fits many times over
  std::size_t max_log_entries = 20000;   // per game: a whole battle takes a few hundred
  std::size_t max_opponent_actions = 500;  // per /opponent request: a guard far above one player's turn
  std::size_t max_games_per_client = 100;
  std::size_t max_memory_bytes = std::size_t{384} << 20;  // all games' estimated memory
  std::size_t max_game_bytes = std::size_t{64} << 20;     // one game's
  double engine_seconds_burst = 30;       // per client address
  double engine_seconds_per_second = 1;   // its refill: one core at most, on average
  double opponent_seconds = 0.5;          // per /opponent request (at least one action is played)
  double import_seconds = 10;             // replaying a log on /import
  double lock_seconds = 0.2;              // one hold of a game's lock while undo or redo replays
  // A game keeps every k-th state of its history, k = its state's size over
  // this (at most max_snapshot_interval): docs/architecture.md, "History".
  std::size_t snapshot_bytes_per_entry = 16 << 10;
  std::size_t max_snapshot_interval = 16;
  // Live updates (GET .../events): streams one client address may hold open,
  // bytes a stream may fall behind before it is closed (its board resumes),
  // and events a game keeps for a stream that resumes (older: one "sync").
  std::size_t max_streams_per_client = 32;
  // What one client address may add to the store (docs/api.md, "Safety"):
  // new games (created or imported) from a bucket of this many that refills
  // at this rate, so that one address cannot fill the store in seconds; and
  // the bytes its games have written since the server started (0: no
  // bound; `referee serve` sets a quarter of --data-max-mb when given).
  double games_burst_per_client = 30;
  double games_per_second_per_client = 0.5;
  std::uint64_t max_stored_bytes_per_client = std::uint64_t{256} << 20;
  std::size_t max_event_backlog = std::size_t{1} << 20;
  std::size_t recent_events = 64;
};

// A battle offered in the menu: a bundled one, or one given with --battle.
struct Battle {
  std::string id;      // "warmaster/default"
  std::string system;  // "warmaster"
  std::string title;   // "Warmaster: the default battle"
  Json scenario;       // the parsed battle file
  std::vector<int> opponent_sides = {};  // BattleInfo::opponent_sides
};

// 32 hex digits from std::random_device.
std::string random_game_id();

class Api {
 public:
  // `battles[0]` is the battle the board opens on.
  // `store`: where games are kept for good (game_store.hpp); null keeps
  // them in memory only, and a game dropped from memory is gone.
  Api(const GameRegistry& registry, std::vector<Battle> battles, Limits limits = {},
      std::function<std::string()> new_id = random_game_id, std::shared_ptr<GameStore> store = nullptr);
  ~Api();

  // Answers the request, charging the CPU time it takes to its client.
  Response handle(const Request& request);

  // The methods `path` answers ("GET, HEAD", "POST", "GET, HEAD, DELETE"),
  // or "" when it is no route of the API. Every route that answers GET
  // answers HEAD.
  static std::string allowed_methods(std::string_view path);
  // 429 with Retry-After when `client` has spent its engine time; the HTTP
  // layer asks before it reads a body.
  std::optional<Response> admit(const std::string& client);
  // 429 naming `client` when the address may make no new game now
  // (Limits::games_burst_per_client); otherwise takes one from its bucket.
  std::optional<Response> take_new_game(const std::string& client);
  // 429 naming `client` when the address's games have written
  // Limits::max_stored_bytes_per_client to the store; else charges `bytes`.
  std::optional<Response> charge_store(const std::string& client, std::uint64_t bytes);

  std::size_t game_count() const;
  // The estimated memory of every game held (game_bytes summed).
  std::size_t memory_estimate() const;
  const Limits& limits() const { return limits_; }
  const GameRegistry& registry() const { return registry_; }

 private:
  // A request on one game, once its route matched and the game was found.
  struct GameRequest {
    const std::string& id;
    const std::shared_ptr<Slot>& slot;
    const Request& request;
    const std::vector<std::string>& parts;  // the path's segments after /api/
  };
  using PlainHandler = Response (Api::*)(const Request& request, const std::vector<std::string>& parts);
  using GameHandler = Response (Api::*)(const GameRequest& call);
  // One route of the API: a path's segments after /api/ ("games/*/log": `*`
  // is any one segment, a final `**` any number, none too), one method, and
  // its handler, either plain or on the game whose id is the second segment
  // (which route() finds first, answering 404 when it is no game). The Allow
  // list of a path is the methods of the first pattern it matches, in the
  // table's order (GET brings HEAD); kRoutes is the one table both
  // allowed_methods and route read.
  struct Route {
    std::string_view pattern;
    std::string_view method;
    PlainHandler plain = nullptr;
    GameHandler game = nullptr;
  };
  static const Route kRoutes[];

  Response route(const Request& request);
  // The plain routes.
  Response systems_route(const Request& request, const std::vector<std::string>& parts);
  Response battles_route(const Request& request, const std::vector<std::string>& parts);
  Response rules_route(const Request& request, const std::vector<std::string>& parts);
  Response create_route(const Request& request, const std::vector<std::string>& parts);
  Response import_route(const Request& request, const std::vector<std::string>& parts);
  Response create_game(const Json& body, const std::string& client);
  Response import_log(const std::string& body, const std::string& client);
  // The routes on one game.
  Response view_route(const GameRequest& call);
  Response delete_route(const GameRequest& call);
  Response replay_route(const GameRequest& call);
  Response entries_route(const GameRequest& call);
  Response validate_route(const GameRequest& call);
  Response chance_route(const GameRequest& call);
  Response apply_route(const GameRequest& call);
  Response legal_actions_route(const GameRequest& call);
  Response sample_route(const GameRequest& call);
  Response queries_route(const GameRequest& call);
  Response query_route(const GameRequest& call);
  Response log_route(const GameRequest& call);
  Response opponent_route(const GameRequest& call);
  Response undo_route(const GameRequest& call);
  Response redo_route(const GameRequest& call);
  Response step_route(const std::string& id, Slot& slot, bool undo, const Request& request);
  Response players_route(const GameRequest& call);
  Response join_route(const GameRequest& call);
  Response events_route(const GameRequest& call);
  // The request body's "action", read under the game's mutex.
  static Json action_of(const std::string& body);
  // 403 unless the request holds `side`'s seat (seats.hpp, unless_held).
  static std::optional<Response> refuse_unless_held(const Slot& slot, const std::vector<int>& held, int side,
                                                    const std::string& what);
  // Writes the change just made to the game (its entries from `keep` on, its
  // position, its meta when `meta`) and, once it is written, tells the
  // viewers (an event of `kind`, with the entries from `keep` on that are
  // played). A write the store refuses answers 503 and drops the game from
  // memory, so that the next request reloads its last good state. Under the
  // slot's mutex.
  std::optional<Response> commit(const std::string& id, Slot& slot, const char* kind, std::size_t keep, bool meta);
  // commit() of the action `player` just played at log position `before`,
  // the side kept for the undo rule.
  std::optional<Response> commit_play(const std::string& id, Slot& slot, int player, std::size_t before);
  // The sides the built-in opponent plays, read from `r` (an array of side
  // numbers, each once); an error naming the field for a system without one.
  std::vector<int> opponent_sides_from(JsonReader r, const Match& match) const;
  // Writes a new game (its log so far, its seats) to the store, and answers
  // 201 with its view and `extra` (the creator's seat tokens); 503 and no
  // game when the store refuses. Under the slot's mutex.
  Response persist_new(const std::string& id, Slot& slot, Json extra);
  // 409 when the game holds as many actions or bytes as a game may.
  std::optional<Response> refuse_if_full(const Slot& slot) const;
  Json view(const std::string& id, const Slot& slot, const std::vector<int>& you) const;
  // Who the request is, for what it is answered (seat_views.hpp, viewer_of).
  static int request_viewer(const Slot& slot, const Request& request);
  // 403 naming `seat` when the request may not ask a question that reads
  // the whole state now (seat_views.hpp, question_refusal).
  static std::optional<Response> refuse_question(const Slot& slot, const Request& request);
  // What every viewer is told of the dice: the seed only when it is fixed or
  // the game is over, the commitment from the start.
  static Json dice_json(const Slot& slot);
  // The game's log as served (GET .../log): the seed withheld while secret
  // dice are still rolling, and the commitment and salt to check it by.
  static GameLog served_log(const Slot& slot);
  // The most entries GET /api/games/{id}/entries/{from} answers at once.
  static constexpr std::size_t kMaxEntriesAnswered = 200;

  const GameRegistry& registry_;
  std::vector<Battle> battles_;
  Limits limits_;
  ClientBudgets budgets_;
  std::shared_ptr<GameStore> store_;
  GameCache games_;
  // When the store next deletes the games its expiry policy says (checked
  // as games are made: StoreOptions::keep_days, once a day).
  std::mutex expiry_mutex_;
  std::chrono::steady_clock::time_point next_expiry_ = std::chrono::steady_clock::now() + std::chrono::hours(24);
  Channels channels_;
};

// Whether an Allow list ("GET, HEAD, DELETE") has `method`.
bool method_listed(std::string_view allow, std::string_view method);

// {"error": {"status": 400, "field": "...", "problem": "...", "message": "..."}}
Response error_response(int status, const std::string& field, const std::string& problem);

}  // namespace referee::server
