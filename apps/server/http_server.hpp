// `referee serve`: cpp-httplib (from Debian) around Api. It serves the web
// board's static files, built into the binary (embedded_files.hpp), and
// hands every /api/ request to Api::handle. Loopback by default: exposing
// the board to a network is a deliberate --host.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "api.hpp"

namespace referee::server {

// The bundled battles of every system, from the files built into the binary,
// the default Warmaster battle first.
std::vector<Battle> bundled_battle_list(const GameRegistry& registry);

// A battle file given with --battle: its system is `system`, or, when that is
// empty, the one system whose loader accepts it (an InputError otherwise,
// with each system's complaint).
Battle battle_from_file(const GameRegistry& registry, const std::string& path, const std::string& system);

class HttpServer {
 public:
  explicit HttpServer(Api& api, int threads = 16);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds host:port (port 0: any free port) and returns the port, or -1.
  int bind(const std::string& host, int port);
  // Serves until stop(); returns false if it could not.
  bool listen();
  void stop();
  // Waits until listen() accepts connections.
  void wait_until_ready() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace referee::server
