#include "http_server.hpp"

#include <chrono>
#include <string_view>
#include <thread>

#include <fmt/format.h>
#include <httplib.h>
#include <sys/socket.h>

#include "embedded_files.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/files.hpp"
#include "referee/core/json_io.hpp"
#include "referee/games/builtin.hpp"

namespace referee::server {

namespace {

std::string_view mime_type(std::string_view path) {
  auto ends = [&](std::string_view ext) {
    return path.size() >= ext.size() && path.substr(path.size() - ext.size()) == ext;
  };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".js")) return "text/javascript; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".svg")) return "image/svg+xml";
  if (ends(".json")) return "application/json";
  if (ends(".png")) return "image/png";
  return "application/octet-stream";
}

void set_common_headers(httplib::Response& res) {
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("Referrer-Policy", "no-referrer");
  res.set_header("Content-Security-Policy",
                 "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'");
}

}  // namespace

std::vector<Battle> bundled_battle_list(const GameRegistry& registry) {
  std::vector<Battle> out;
  for (const BundledBattle& b : bundled_battles()) {
    const EmbeddedFile* f = find_embedded(b.file);
    if (f == nullptr) throw std::logic_error("the bundled battle " + b.file + " was not built into the binary");
    Json scenario = parse_json_text(f->content, b.file);
    registry.at(b.system).load(scenario, b.file, Json::object());  // a bundled battle that fails to load is a bug
    out.push_back({b.system + "/" + b.name, b.system, b.title, std::move(scenario)});
  }
  return out;
}

Battle battle_from_file(const GameRegistry& registry, const std::string& path, const std::string& system) {
  const Json scenario = naming_source(path, [&] { return parse_json_text(read_text_file(path), path); });
  std::string name = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  if (!system.empty()) {
    const GameType& t = registry.at(system, "--system");
    auto game = naming_source(path, [&] { return t.load(scenario, path, Json::object()); });
    return {"file/" + name, t.name, fmt::format("{}: {} (from {})", t.title, scenario.value("name", name), path),
            scenario};
  }
  std::string complaints;
  for (const GameType& t : registry.types()) {
    try {
      t.load(scenario, path, Json::object());
      return {"file/" + name, t.name, fmt::format("{}: {} (from {})", t.title, scenario.value("name", name), path),
              scenario};
    } catch (const InputError& e) {
      complaints += fmt::format("\n  as {}: {}", t.name, e.what());
    }
  }
  throw InputError(path, "not a battle of any system (give --system to see one system's complaint in full):" + complaints);
}

struct HttpServer::Impl {
  Api& api;
  httplib::Server server;
  int listen_fd = -1;
  explicit Impl(Api& a) : api(a) {}
};

HttpServer::HttpServer(Api& api, int threads) : impl_(std::make_unique<Impl>(api)) {
  httplib::Server& svr = impl_->server;
  svr.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<std::size_t>(threads)); };
  // httplib answers 413 itself for a longer body, before reading it.
  svr.set_payload_max_length(api.limits().max_body_bytes);
  svr.set_read_timeout(10, 0);
  // The answer's headers and body go out in separate writes: without
  // TCP_NODELAY the second waits for the client's delayed ACK (40 ms).
  svr.set_tcp_nodelay(true);
  // httplib's own socket options set SO_REUSEPORT, which would let a second
  // server share the port unnoticed; SO_REUSEADDR alone allows a quick
  // restart. The listening socket is kept so bind() can raise its backlog.
  svr.set_socket_options([this](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    impl_->listen_fd = sock;
  });
  svr.set_write_timeout(10, 0);
  // A page load asks for the page, its style, four modules and the first
  // API answers over a handful of connections; the library's default of 5
  // requests per connection makes the browser open new ones part way.
  svr.set_keep_alive_max_count(100);

  auto api_handler = [this](const httplib::Request& req, httplib::Response& res) {
    const Response r = impl_->api.handle({req.method, req.path, req.body});
    res.status = r.status;
    set_common_headers(res);
    res.set_header("Cache-Control", "no-store");
    res.set_content(r.body, r.content_type.c_str());
  };
  const char* api_pattern = R"(/api/.*)";
  svr.Get(api_pattern, api_handler);
  svr.Post(api_pattern, api_handler);
  svr.Delete(api_pattern, api_handler);
  svr.Put(api_pattern, api_handler);
  svr.Patch(api_pattern, api_handler);

  svr.Get(R"(/(.*))", [](const httplib::Request& req, httplib::Response& res) {
    std::string path = req.matches[1];
    if (path.empty()) path = "index.html";
    const EmbeddedFile* f = path.find("..") == std::string::npos ? find_embedded("web/app/" + path) : nullptr;
    set_common_headers(res);
    if (f == nullptr) {
      res.status = 404;
      const Response r = error_response(404, "path", "no such file: /" + path);
      res.set_content(r.body, "application/json");
      return;
    }
    res.set_header("Cache-Control", "no-cache");
    res.set_content(std::string(f->content), std::string(mime_type(path)).c_str());
  });

  // Errors httplib finds before any handler (413, 400 on a malformed
  // request line): the same JSON error shape as the API's.
  svr.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    std::string problem = res.status == 413 ? "the body is longer than this server accepts"
                          : res.status == 404 ? "no such route: " + req.path
                                              : "the request could not be read";
    const Response r = error_response(res.status, res.status == 413 ? "body" : "request", problem);
    res.set_content(r.body, "application/json");
  });
  svr.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    std::string what = "unknown";
    try {
      std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    res.status = 500;
    const Response r = error_response(500, "", "internal error: " + what);
    res.set_content(r.body, "application/json");
  });
}

HttpServer::~HttpServer() { stop(); }

int HttpServer::bind(const std::string& host, int port) {
  const int bound = port == 0 ? impl_->server.bind_to_any_port(host) : impl_->server.bind_to_port(host, port) ? port : -1;
  // The library listens with a backlog of 5, fixed when it was built: a
  // burst of connections (a board's page load, the load test's 1,000 checks)
  // then waits out SYN retries of a second or more, or is reset. Listening
  // again on the same socket raises the backlog (the kernel caps it at
  // net.core.somaxconn).
  if (bound > 0 && impl_->listen_fd >= 0) ::listen(impl_->listen_fd, 4096);
  return bound;
}

bool HttpServer::listen() { return impl_->server.listen_after_bind(); }

void HttpServer::stop() {
  if (impl_ && impl_->server.is_running()) impl_->server.stop();
}

void HttpServer::wait_until_ready() const {
  while (!impl_->server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

}  // namespace referee::server
