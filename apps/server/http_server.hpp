// `referee serve`: Boost.Asio (Debian's Boost) around the HTTP front end
// (http_front.hpp) and the API (api.hpp). One thread runs every connection's
// I/O, so a connection that is slow to send or to read costs a socket and a
// buffer, never a thread; the API runs on a pool of worker threads, and an
// upload or a log (a body over 64 KiB) on one thread of its own, so a few
// expensive requests cannot hold up the board's small ones. It serves the web
// board's static files, built into the binary (embedded_files.hpp), and
// hands every /api/ request to Api::handle. Loopback by default: exposing
// the board to a network is a deliberate --host. docs/architecture.md, "The
// web board", says why Asio and not cpp-httplib.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "api.hpp"
#include "http_front.hpp"
#include "referee/core/files.hpp"

namespace referee::server {

// The bundled battles of every system, from the files built into the binary,
// the default Warmaster battle first.
std::vector<Battle> bundled_battle_list(const GameRegistry& registry);

// A battle file given with --battle: its system is `system`, or, when that is
// empty, the one system whose loader accepts it (an InputError otherwise,
// with each system's complaint).
Battle battle_from_file(const GameRegistry& registry, const std::string& path, const std::string& system,
                        std::uint64_t max_bytes = kDefaultMaxInputBytes);

struct Session;

class HttpServer {
 public:
  // `threads`: the API's worker threads (0: two per core, at least four).
  explicit HttpServer(Api& api, int threads = 0, HttpLimits limits = {});
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // A name the server answers to besides loopback and the bound address
  // (--allow-host); before bind().
  void allow_host(const std::string& name);
  // A reverse proxy whose X-Forwarded-For names the client (Audience::
  // trusted_proxies): an address as canonical_address() writes it.
  void trust_proxy(const std::string& address);
  // Serves a board's file that is not in web/app (boards.hpp: a test
  // system's board); before bind().
  void serve_board_file(BoardFile file);
  // Serves HTTPS (TLS 1.2 or later) with this PEM certificate chain and its
  // PEM private key; before bind(). False when they cannot be used, with why
  // (naming the file) in *error and, in *key_at_fault, whether the key file
  // (rather than the certificate) is the one at fault: each must be a
  // regular file (read_text_file; a FIFO or a device is refused, never
  // opened to wait), and the key not encrypted (no passphrase is asked for).
  // Origin is then https://<Host> (Audience::tls).
  bool use_tls(const std::string& cert_file, const std::string& key_file, std::string* error,
               bool* key_at_fault = nullptr);
  // Binds host:port (port 0: any free port) and returns the port, or -1.
  int bind(const std::string& host, int port);
  // Serves until stop() (or SIGINT or SIGTERM when `on_signals`); returns
  // false if it could not.
  bool listen(bool on_signals = false);
  // From any thread.
  void stop();
  // Waits until listen() accepts connections.
  void wait_until_ready() const;
  // Connections open now, for the tests.
  std::size_t connections() const;

 private:
  struct Impl;
  friend struct Session;
  std::unique_ptr<Impl> impl_;
};

}  // namespace referee::server
