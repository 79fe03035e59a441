#include "http_server.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <set>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/write.hpp>
#include <fmt/format.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "embedded_files.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/files.hpp"
#include "referee/core/json_io.hpp"

namespace referee::server {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

std::vector<Battle> bundled_battle_list(const GameRegistry& registry) {
  std::vector<Battle> out;
  for (const GameType& t : registry.types())
    for (const BattleInfo& b : t.battles) {
      const EmbeddedFile* f = b.text.empty() ? find_embedded(b.file) : nullptr;
      if (b.text.empty() && f == nullptr)
        throw std::logic_error("the bundled battle " + b.file + " was not built into the binary");
      Json scenario = parse_json_text(b.text.empty() ? f->content : std::string_view(b.text), b.file);
      t.load(scenario, b.file, Json::object());  // a bundled battle that fails to load is a bug
      out.push_back({t.name + "/" + b.name, t.name, b.title, std::move(scenario), b.opponent_sides});
    }
  return out;
}

Battle battle_from_file(const GameRegistry& registry, const std::string& path, const std::string& system,
                        std::uint64_t max_bytes) {
  const Json scenario = naming_source(path, [&] { return parse_json_text(read_text_file(path, max_bytes), path); });
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

namespace {

std::chrono::steady_clock::duration seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

// Bodies over this go to the worker of their own (uploads, logs).
constexpr std::size_t kHeavyBody = 64 << 10;
// A connection that has sent nothing for this long may be closed to make
// room when every connection is taken.
constexpr auto kEvictableAfter = std::chrono::seconds(1);

}  // namespace

struct Session;

struct HttpServer::Impl {
  Api& api;
  HttpLimits limits;
  std::vector<std::string> allowed;
  std::vector<std::string> trusted;  // --trusted-proxy
  BoardFiles board_files;            // serve_board_file
  std::unique_ptr<asio::ssl::context> tls;  // HTTPS (use_tls)
  std::unique_ptr<FrontEnd> front;
  asio::io_context io{1};
  tcp::acceptor acceptor{io};
  asio::steady_timer accept_retry{io};
  asio::signal_set signals{io};
  std::set<Session*> sessions;  // the I/O thread's alone
  std::size_t max_connections;
  bool accept_paused = false;
  std::atomic<bool> running{false};
  std::atomic<std::size_t> open{0};
  asio::thread_pool light;
  asio::thread_pool heavy{1};

  Impl(Api& a, int threads, HttpLimits l)
      : api(a), limits(l), max_connections(l.max_connections),
        light(static_cast<std::size_t>(threads > 0 ? threads : std::max(4u, 2 * std::thread::hardware_concurrency()))) {}
  ~Impl() {
    light.join();
    heavy.join();
  }
  void do_accept();
  bool evict_one();
  void closed(Session* s);
};

// One connection: reads into its HttpConnection, writes what it answers,
// runs the API on a worker, and keeps a deadline per phase (HttpLimits).
struct Session : std::enable_shared_from_this<Session> {
  HttpServer::Impl& srv;
  tcp::socket sock;
  std::unique_ptr<asio::ssl::stream<tcp::socket&>> tls;  // over sock, when serving HTTPS
  asio::steady_timer timer;
  HttpConnection conn;
  std::array<char, 8192> buf{};
  HttpConnection::Phase armed = HttpConnection::Phase::closed;
  Clock::time_point phase_start = Clock::now();
  bool timed_out = false;
  bool closed = false;
  std::size_t drained = 0;

  Clock::time_point phase_deadline = Clock::now();  // the armed phase's own deadline

  Session(HttpServer::Impl& s, tcp::socket socket, std::string client)
      : srv(s), sock(std::move(socket)), timer(s.io), conn(*s.front, std::move(client)) {
    if (srv.tls) tls = std::make_unique<asio::ssl::stream<tcp::socket&>>(sock, *srv.tls);
  }

  // The socket's I/O, through TLS when serving HTTPS.
  template <class Handler>
  void read_some(asio::mutable_buffer b, Handler&& h) {
    if (tls) return tls->async_read_some(b, std::forward<Handler>(h));
    sock.async_read_some(b, std::forward<Handler>(h));
  }
  template <class Handler>
  void write(asio::const_buffer b, Handler&& h) {
    if (tls) return asio::async_write(*tls, b, std::forward<Handler>(h));
    asio::async_write(sock, b, std::forward<Handler>(h));
  }
  // Stops sending. Over TLS too this is the TCP half-close, without a
  // close_notify: every answer is framed by its Content-Length.
  void shutdown_send() {
    boost::system::error_code ignored;
    sock.shutdown(tcp::socket::shutdown_send, ignored);
  }
  void close_socket() {
    boost::system::error_code ignored;
    sock.close(ignored);
  }

  // The first step: the TLS handshake, when serving HTTPS, within the
  // header's deadline (a client that fails it is closed), then requests.
  // A handshake counts as a header being read: one that has waited long
  // enough may make room for a new connection (evictable).
  void start() {
    if (!tls) return drive();
    armed = HttpConnection::Phase::header;
    phase_start = Clock::now();
    timer.expires_after(seconds(srv.limits.header_seconds));
    timer.async_wait([self = shared_from_this()](boost::system::error_code ec) {
      if (!ec && !self->closed) self->close_socket();
    });
    tls->async_handshake(asio::ssl::stream_base::server, [self = shared_from_this()](boost::system::error_code ec) {
      if (self->closed) return;
      if (ec) return self->do_close(false);
      self->drive();
    });
  }

  bool evictable(Clock::time_point now) const {
    using P = HttpConnection::Phase;
    return !closed && (armed == P::idle || armed == P::header || armed == P::body) && now - phase_start >= kEvictableAfter;
  }

  // A live-update stream: one read stays pending to see the client go, and
  // the stream's pushes wake the session on the I/O thread.
  bool stream_hooked = false;
  bool stream_reading = false;
  bool writing = false;

  void arm() {
    using P = HttpConnection::Phase;
    const P p = conn.phase();
    if (p == armed) return;
    armed = p;
    phase_start = Clock::now();
    const HttpLimits& l = srv.limits;
    double s = 0;
    switch (p) {
      case P::idle: s = l.idle_seconds; break;
      case P::header: s = l.header_seconds; break;
      case P::body: s = l.body_seconds; break;
      case P::writing: s = l.write_seconds; break;
      case P::streaming: s = l.ping_seconds; break;
      case P::handling: case P::closed: timer.cancel(); return;
    }
    phase_deadline = phase_start + seconds(s);
    if (p == P::body) return progressed();
    wait_until(phase_deadline);
  }

  // A byte of the body has come (or the body phase begins): it may stall for
  // HttpLimits::body_stall_seconds from now, within the body's own deadline.
  // A body announced and never sent is cut off then, and gives back its
  // budget, instead of holding it to the end of body_seconds.
  void progressed() {
    if (armed != HttpConnection::Phase::body) return;
    wait_until(std::min(phase_deadline, Clock::now() + seconds(srv.limits.body_stall_seconds)));
  }

  // Setting the expiry cancels the wait for the last one (its handler sees
  // the error and returns).
  void wait_until(Clock::time_point deadline) {
    timer.expires_at(deadline);
    timer.async_wait([self = shared_from_this()](boost::system::error_code ec) {
      if (ec || self->closed || self->timer.expiry() > Clock::now()) return;
      self->timed_out = true;
      self->conn.time_out();
      boost::system::error_code ignored;
      self->sock.cancel(ignored);  // the pending read or write ends; its handler drives on
    });
  }

  void drive() {
    if (closed) return;
    const HttpConnection::Step step = conn.step();
    arm();
    switch (step) {
      case HttpConnection::Step::read: return do_read();
      case HttpConnection::Step::write: return do_write();
      case HttpConnection::Step::handle: return do_handle();
      case HttpConnection::Step::close: return do_close(true);
      case HttpConnection::Step::stream: return do_stream();
    }
  }

  void do_stream() {
    if (!stream_hooked) {
      stream_hooked = true;
      std::weak_ptr<Session> weak = weak_from_this();
      asio::io_context& io = srv.io;
      conn.stream()->set_wakeup([weak, &io] {
        asio::post(io, [weak] {
          if (auto self = weak.lock(); self && !self->writing && !self->closed) self->drive();
        });
      });
    }
    if (stream_reading) return;
    stream_reading = true;
    read_some(asio::buffer(buf), [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
      self->stream_reading = false;
      if (self->closed) return;
      if (self->timed_out) {
        self->timed_out = false;  // the ping's deadline: drive writes the ping
      } else if (ec) {
        return self->do_close(false);  // the client has gone
      }
      if (!self->writing) self->drive();
    });
  }

  void do_read() {
    const std::size_t n = std::min(buf.size(), conn.room());
    read_some(asio::buffer(buf.data(), n), [self = shared_from_this()](boost::system::error_code ec, std::size_t got) {
      if (self->closed) return;
      if (self->timed_out) {
        self->timed_out = false;
      } else if (ec == asio::error::eof) {
        self->conn.receive_eof();
      } else if (ec) {
        return self->do_close(false);
      } else {
        self->conn.receive({self->buf.data(), got});
        if (got > 0) self->progressed();
      }
      self->drive();
    });
  }

  void do_write() {
    if (writing) return;
    writing = true;
    write(asio::buffer(conn.output()), [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
      self->writing = false;
      if (self->closed) return;
      if (ec || self->timed_out) return self->do_close(false);
      self->conn.written();
      self->drive();
    });
  }

  void do_handle() {
    Request job = conn.take_job();
    asio::thread_pool& pool = job.body.size() > kHeavyBody ? srv.heavy : srv.light;
    asio::post(pool, [self = shared_from_this(), job = std::move(job)]() mutable {
      Response r;
      try {
        r = self->srv.api.handle(job);
      } catch (const std::exception& e) {
        r = error_response(500, "", std::string("internal error: ") + e.what());
      }
      asio::io_context& io = self->srv.io;
      asio::post(io, [self = std::move(self), r = std::move(r)]() mutable {
        if (self->closed) return;
        self->conn.answer(r);
        self->drive();
      });
    });
  }

  // Closing after an answer: stop sending, then read and drop what the
  // client still sends for a moment, so that the answer is not lost to a
  // reset (a client that sent a body the server refused).
  void do_close(bool linger) {
    if (closed) return;
    closed = true;
    srv.closed(this);
    if (!linger) {
      timer.cancel();
      close_socket();
      return;
    }
    shutdown_send();
    timer.expires_after(std::chrono::seconds(2));
    timer.async_wait([self = shared_from_this()](boost::system::error_code) { self->close_socket(); });
    drain();
  }

  void drain() {
    read_some(asio::buffer(buf), [self = shared_from_this()](boost::system::error_code ec, std::size_t got) {
      self->drained += got;
      if (!ec && self->drained < (std::size_t{4} << 20)) return self->drain();
      self->timer.cancel();
      self->close_socket();
    });
  }
};

void HttpServer::Impl::closed(Session* s) {
  sessions.erase(s);
  open = sessions.size();
  if (accept_paused) {
    accept_paused = false;
    do_accept();
  }
}

// When every connection is taken, the one that has waited longest for a
// request (or for the rest of one) makes room: a flood of slow connections
// cannot keep new clients out.
bool HttpServer::Impl::evict_one() {
  const auto now = Clock::now();
  Session* oldest = nullptr;
  for (Session* s : sessions)
    if (s->evictable(now) && (oldest == nullptr || s->phase_start < oldest->phase_start)) oldest = s;
  if (oldest == nullptr) return false;
  oldest->do_close(false);
  return true;
}

void HttpServer::Impl::do_accept() {
  if (!acceptor.is_open()) return;
  if (sessions.size() >= max_connections && !evict_one()) {
    // closed() accepts again, or, a moment later, a connection that has
    // become idle long enough to be dropped makes room.
    accept_paused = true;
    accept_retry.expires_after(std::chrono::milliseconds(100));
    accept_retry.async_wait([this](boost::system::error_code e) {
      if (e || !accept_paused) return;
      accept_paused = false;
      do_accept();
    });
    return;
  }
  acceptor.async_accept([this](boost::system::error_code ec, tcp::socket sock) {
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
    if (ec) {
      // Out of descriptors or memory for a moment: try again shortly.
      accept_retry.expires_after(std::chrono::milliseconds(50));
      accept_retry.async_wait([this](boost::system::error_code e) {
        if (!e) do_accept();
      });
      return;
    }
    boost::system::error_code e;
    sock.set_option(tcp::no_delay(true), e);
    auto address = sock.remote_endpoint(e).address();
    if (address.is_v6() && address.to_v6().is_v4_mapped()) address = address.to_v6().to_v4();
    auto session = std::make_shared<Session>(*this, std::move(sock), e ? std::string("?") : address.to_string());
    sessions.insert(session.get());
    open = sessions.size();
    session->start();
    do_accept();
  });
}

HttpServer::HttpServer(Api& api, int threads, HttpLimits limits) : impl_(std::make_unique<Impl>(api, threads, limits)) {}

HttpServer::~HttpServer() { stop(); }

void HttpServer::allow_host(const std::string& name) { impl_->allowed.push_back(name); }
void HttpServer::trust_proxy(const std::string& address) { impl_->trusted.push_back(address); }
void HttpServer::serve_board_file(BoardFile file) { impl_->board_files.push_back(std::move(file)); }

namespace {

// OpenSSL's reason for a failure (the last in its queue, which is then
// emptied), else the error code's, else `fallback`.
std::string openssl_reason(const boost::system::error_code& ec, const std::string& fallback) {
  const unsigned long last = ::ERR_peek_last_error();
  const char* why = last != 0 ? ::ERR_reason_error_string(last) : nullptr;
  ::ERR_clear_error();
  if (why != nullptr) return why;
  return ec ? ec.message() : fallback;
}

}  // namespace

bool HttpServer::use_tls(const std::string& cert_file, const std::string& key_file, std::string* error,
                         bool* key_at_fault) {
  const auto fail = [&](bool key, std::string why) {
    if (error != nullptr) *error = std::move(why);
    if (key_at_fault != nullptr) *key_at_fault = key;
    return false;
  };
  // Read as every input is (read_text_file): a regular file only, so a FIFO
  // or a device is refused by name instead of blocking the server or being
  // read without end; OpenSSL then loads them from memory.
  std::string cert_pem, key_pem;
  try {
    cert_pem = read_text_file(cert_file);
  } catch (const InputError& e) {
    return fail(false, e.what());
  }
  try {
    key_pem = read_text_file(key_file);
  } catch (const InputError& e) {
    return fail(true, e.what());
  }
  if (cert_pem.empty()) return fail(false, fmt::format("{} is empty; expected a PEM certificate chain", cert_file));
  if (key_pem.empty()) return fail(true, fmt::format("{} is empty; expected a PEM private key", key_file));
  // The key's text is wiped once it is loaded: OpenSSL holds the key from then on.
  struct Wipe {
    std::string& text;
    ~Wipe() { ::OPENSSL_cleanse(text.data(), text.size()); }
  } wipe{key_pem};
  auto ctx = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_server);
  ctx->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                   asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 | asio::ssl::context::no_tlsv1_1 |
                   asio::ssl::context::single_dh_use | SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION |
                   SSL_OP_CIPHER_SERVER_PREFERENCE);
  ::SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_2_VERSION);
  // TLS 1.2: forward-secret AEAD suites only (TLS 1.3's are OpenSSL's default).
  ::SSL_CTX_set_cipher_list(ctx->native_handle(),
                            "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
                            "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305");
  // Never a passphrase prompt (OpenSSL's default, on the terminal): a server
  // may have none, and one waiting at a prompt silently does not start. The
  // callback gives no passphrase and notes that one was asked for: the key
  // is encrypted.
  const auto asked = std::make_shared<bool>(false);
  ctx->set_password_callback([asked](std::size_t, asio::ssl::context::password_purpose) {
    *asked = true;
    return std::string();
  });
  ::ERR_clear_error();
  boost::system::error_code ec;
  ctx->use_certificate_chain(asio::buffer(cert_pem), ec);
  if (ec) return fail(false, fmt::format("{} is not a PEM certificate ({})", cert_file, openssl_reason(ec, "")));
  ctx->use_private_key(asio::buffer(key_pem), asio::ssl::context::pem, ec);
  if (ec && *asked) {
    ::ERR_clear_error();
    return fail(true, fmt::format("{} is encrypted: encrypted keys are not supported: decrypt it with openssl pkey "
                                  "(openssl pkey -in {} -out key.pem, a file only the server's user may read)",
                                  key_file, key_file));
  }
  const bool mismatch = ec.category() == asio::error::get_ssl_category() &&
                        ERR_GET_REASON(static_cast<unsigned long>(ec.value())) == X509_R_KEY_VALUES_MISMATCH;
  if ((ec && mismatch) || (!ec && ::SSL_CTX_check_private_key(ctx->native_handle()) != 1))
    return fail(true, fmt::format("{} is not the key of the certificate {} ({})", key_file, cert_file,
                                  openssl_reason(ec, "they do not match")));
  if (ec) return fail(true, fmt::format("{} is not a PEM private key ({})", key_file, openssl_reason(ec, "")));
  impl_->tls = std::move(ctx);
  return true;
}

int HttpServer::bind(const std::string& host, int port) {
  Impl& m = *impl_;
  Audience audience = Audience::for_host(host, m.allowed);
  audience.tls = m.tls != nullptr;
  audience.trusted_proxies = m.trusted;
  m.front = std::make_unique<FrontEnd>(m.api, std::move(audience), m.limits, m.board_files);
  // Every connection is a descriptor: take what the system allows, and
  // keep some for the rest of the process.
  rlimit fds{};
  if (::getrlimit(RLIMIT_NOFILE, &fds) == 0) {
    fds.rlim_cur = std::min<rlim_t>(fds.rlim_max, 65536);
    ::setrlimit(RLIMIT_NOFILE, &fds);
    ::getrlimit(RLIMIT_NOFILE, &fds);
    m.max_connections = std::min<std::size_t>(m.limits.max_connections, fds.rlim_cur > 128 ? fds.rlim_cur - 64 : 64);
  }
  boost::system::error_code ec;
  tcp::resolver resolver(m.io);
  const auto found = resolver.resolve(host, std::to_string(port), tcp::resolver::numeric_service, ec);
  if (ec || found.empty()) return -1;
  const tcp::endpoint at = found.begin()->endpoint();
  m.acceptor.open(at.protocol(), ec);
  if (ec) return -1;
  m.acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  m.acceptor.bind(at, ec);
  // A burst of connections (a board's page load, the load test's 1,000
  // checks) waits in the backlog; the kernel caps it at net.core.somaxconn.
  if (!ec) m.acceptor.listen(4096, ec);
  if (ec) {
    m.acceptor.close(ec);
    return -1;
  }
  return m.acceptor.local_endpoint().port();
}

bool HttpServer::listen(bool on_signals) {
  Impl& m = *impl_;
  if (!m.acceptor.is_open()) return false;
  if (on_signals) {
    m.signals.add(SIGINT);
    m.signals.add(SIGTERM);
    m.signals.async_wait([this](boost::system::error_code ec, int) {
      if (!ec) stop();
    });
  }
  asio::post(m.io, [&m] {
    m.running = true;
    m.do_accept();
  });
  m.io.run();
  m.running = false;
  return true;
}

void HttpServer::stop() {
  if (!impl_) return;
  Impl& m = *impl_;
  asio::post(m.io, [&m] {
    boost::system::error_code ignored;
    m.acceptor.close(ignored);
    m.signals.cancel(ignored);
    m.io.stop();
  });
  // Not yet running: stop at once.
  if (!m.running) m.io.stop();
}

void HttpServer::wait_until_ready() const {
  while (!impl_->running) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

std::size_t HttpServer::connections() const { return impl_->open; }

}  // namespace referee::server
