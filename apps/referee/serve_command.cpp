// referee serve: the web board (apps/server), on loopback unless --host says
// otherwise. It opens on the fair battle against the built-in opponent (the
// first bundled battle that names sides for it to play), or on --battle.
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <chrono>
#include <iostream>
#include <optional>
#include <thread>

#include <sys/stat.h>

#include <fmt/format.h>

#include "commands.hpp"
#include "data_dir_lock.hpp"
#include "game_store.hpp"
#include "http_front.hpp"
#include "http_server.hpp"
#include "referee/core/errors.hpp"

namespace referee::cli {

namespace {

struct ServeOptions {
  std::string battle;
  std::string system;
  std::string host = "127.0.0.1";
  std::vector<std::string> allow_hosts;
  std::vector<std::string> trusted_proxies;
  std::string tls_cert;  // with tls_key: HTTPS
  std::string tls_key;
  int port = 8080;
  std::size_t max_games = 500;
  std::size_t max_games_per_client = server::Limits{}.max_games_per_client;
  std::size_t max_streams_per_client = server::Limits{}.max_streams_per_client;
  double new_games_per_client = server::Limits{}.games_burst_per_client;
  std::size_t max_body = 1 << 20;
  double stop_after = 0;  // seconds; 0 serves until stopped
  // Where the games are kept (apps/server/game_store.hpp); ":memory:" keeps none.
  std::string data_dir = server::default_data_dir();
  std::uint64_t data_max_mb = 0;  // 0: as much as the disk holds
  int keep_days = 0;              // 0: games are kept for good
};

void serve(const ServeOptions& o, const GameRegistry& registry, std::uint64_t max_input_bytes,
           const server::BoardFiles& board_files) {
  // Past a file size limit (ulimit -f) a write then fails with EFBIG, which
  // the store reports (503 naming data) like a full disk, instead of SIGXFSZ
  // killing the server and every game in play with it.
  std::signal(SIGXFSZ, SIG_IGN);
  std::vector<server::Battle> battles = server::bundled_battle_list(registry);
  if (!o.battle.empty())
    battles.insert(battles.begin(), server::battle_from_file(registry, o.battle, o.system, max_input_bytes));
  else
    // A newcomer meets the fair battle against the computer first; the
    // others follow in their order (GET /api/battles' default is the first).
    std::stable_partition(battles.begin(), battles.end(), [](const server::Battle& b) { return !b.opponent_sides.empty(); });
  server::Limits limits;
  limits.max_games = o.max_games;
  limits.max_games_per_client = o.max_games_per_client;
  limits.max_streams_per_client = o.max_streams_per_client;
  limits.games_burst_per_client = o.new_games_per_client;
  limits.max_body_bytes = o.max_body;
  // A store of bounded size is shared: one address may fill a quarter of it.
  if (o.data_max_mb > 0) limits.max_stored_bytes_per_client = (o.data_max_mb << 20) / 4;
  // The store opens before anything listens: a data directory that can be
  // neither written nor read stops the server with the reason.
  std::shared_ptr<server::GameStore> store;
  std::optional<server::DataDirLock> lock;
  if (o.data_dir != ":memory:") {
    // One server per store (data_dir_lock.hpp): the lock is taken before
    // the store is opened, and held until the server stops.
    ::mkdir(o.data_dir.c_str(), 0700);
    lock.emplace(o.data_dir);
    server::StoreOptions options;
    options.max_bytes = o.data_max_mb << 20;
    options.keep_days = o.keep_days;
    try {
      store = server::GameStore::open(o.data_dir, options);
    } catch (const server::StoreError& e) {
      throw InputError("--data", e.what());
    }
    std::cout << fmt::format("referee: games are kept in {}{}\n", store->path(),
                             store->read_only() ? " (read-only: games can be watched, not played on)" : "");
  }
  server::Api api(registry, std::move(battles), limits, server::random_game_id, store);
  server::HttpServer http(api);
  for (const server::BoardFile& f : board_files) http.serve_board_file(f);
  for (const std::string& name : o.allow_hosts) http.allow_host(name);
  for (const std::string& address : o.trusted_proxies) http.trust_proxy(server::canonical_address(address));
  const bool https = !o.tls_cert.empty();
  if (https) {
    std::string problem;
    bool key_at_fault = false;
    if (!http.use_tls(o.tls_cert, o.tls_key, &problem, &key_at_fault))
      throw InputError(key_at_fault ? "--tls-key" : "--tls-cert", problem);
  }
  const int port = http.bind(o.host, o.port);
  if (port < 0) throw InputError("--port", fmt::format("cannot listen on {}:{} (in use, or not an address of this machine)", o.host, o.port));
  const bool v6 = o.host.find(':') != std::string::npos;
  std::cout << fmt::format("referee: the web board is at {}://{}:{}/ (Ctrl-C stops it)\n", https ? "https" : "http",
                           v6 ? "[" + o.host + "]" : o.host, port)
            << std::flush;
  if (o.host != "127.0.0.1" && o.host != "localhost" && o.host != "::1")
    std::cerr << "referee: warning: listening on " << o.host
              << ", so other machines can reach the board; each game is reached only through its id, and moved "
                 "only with a seat's token; the board answers only to this address, loopback names and --allow-host "
                 "names; without --tls-cert it is plain HTTP (docs/deploy.md)\n";
  std::thread timer;
  if (o.stop_after > 0)
    timer = std::thread([&http, s = o.stop_after] {
      http.wait_until_ready();
      std::this_thread::sleep_for(std::chrono::duration<double>(s));
      http.stop();
    });
  http.listen(true);
  if (timer.joinable()) timer.join();
}

}  // namespace

void add_serve_command(CLI::App& app, const GameRegistry& registry, std::uint64_t max_input_bytes,
                       const server::BoardFiles& board_files) {
  auto o = std::make_shared<ServeOptions>();
  auto* cmd = app.add_subcommand("serve", "The web board: play every system in the browser (docs/api.md)");
  cmd->add_option("--battle", o->battle, "A battle file to open on instead of the fair Warmaster battle against the built-in opponent");
  cmd->add_option("--system", o->system, "The --battle file's system (default: the one whose format it is)");
  cmd->add_option("--host", o->host, "Address to listen on (default 127.0.0.1, this machine only)");
  cmd->add_option("--allow-host", o->allow_hosts,
                  "Another name the board answers to in the Host header (a name of this machine given --host 0.0.0.0); "
                  "repeatable")
      ->check([](const std::string& v) {
        return v.empty() || v.find_first_of(" /\t@?#") != std::string::npos ? "expected a host name or address" : "";
      });
  cmd->add_option("--trusted-proxy", o->trusted_proxies,
                  "The address of a reverse proxy in front of the board (e.g. 127.0.0.1): its X-Forwarded-For names "
                  "each client, for the per-client bounds; repeatable (docs/deploy.md)")
      ->check([](const std::string& v) {
        return server::canonical_address(v).empty() ? "expected an IP address (the proxy's, as the server sees it)"
                                                    : "";
      });
  auto* cert = cmd->add_option("--tls-cert", o->tls_cert,
                               "Serve HTTPS with this certificate chain (a PEM file, e.g. Let's Encrypt's fullchain.pem); "
                               "needs --tls-key (docs/deploy.md)");
  auto* key = cmd->add_option("--tls-key", o->tls_key, "The private key (a PEM file) of --tls-cert's certificate");
  cert->needs(key);
  key->needs(cert);
  cmd->add_option("--port", o->port, "Port (default 8080; 0 picks a free one)")->check(CLI::Range(0, 65535));
  cmd->add_option("--max-games", o->max_games, "Games kept in memory; the least recently used goes first (default 500)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--max-games-per-client", o->max_games_per_client,
                  "Games in memory per client address; its least recently used goes first (default 100). Behind a "
                  "reverse proxy every client has the proxy's address, unless --trusted-proxy names it")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--max-streams-per-client", o->max_streams_per_client,
                  "Live-update streams one client address may hold open (default 32); more are refused with 429. "
                  "Behind a reverse proxy every client has the proxy's address, unless --trusted-proxy names it")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--new-games-per-client", o->new_games_per_client,
                  "New games (made or imported) one client address may make at once (default 30); one more every 2 s "
                  "after that, more are refused with 429. Behind a reverse proxy every client has the proxy's "
                  "address, unless --trusted-proxy names it")
      ->check(CLI::Range(1.0, 1e9));
  cmd->add_option("--max-body", o->max_body, "Largest request body in bytes (default 1048576)")
      ->check(CLI::Range(1024, 64 << 20));
  cmd->add_option("--stop-after", o->stop_after, "Stop after this many seconds (a smoke test of the set-up); default: serve until Ctrl-C")
      ->check(CLI::Range(0.0, 1e7));
  cmd->add_option("--data", o->data_dir,
                  "Directory the games are kept in, for good (default " + server::default_data_dir() +
                      ", from $XDG_STATE_HOME or $HOME); :memory: keeps them only while the server runs")
      ->check([](const std::string& v) { return v.empty() ? "expected a directory, or :memory:" : ""; });
  cmd->add_option("--data-max-mb", o->data_max_mb,
                  "Most megabytes the games may take on disk; past it a change is refused as on a full disk (default 0: no limit)")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 30));
  cmd->add_option("--keep-days", o->keep_days, "Delete games unchanged for this many days (default 0: keep them for good)")
      ->check(CLI::Range(0, 1000000));
  cmd->callback([o, &registry, max_input_bytes, board_files] { serve(*o, registry, max_input_bytes, board_files); });
}

}  // namespace referee::cli
