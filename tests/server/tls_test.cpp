// `referee serve --tls-cert/--tls-key`: HttpServer over TLS on loopback, with
// the test certificate in tests/server/data (localhost, 127.0.0.1 and ::1;
// a test-only key). A client that checks the certificate against that file
// gets the API's answers; a plain-HTTP client gets none; files that cannot
// be used are refused with why, before anything listens.
#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdio>
#include <thread>

#include <openssl/evp.h>
#include <openssl/pem.h>

#include "api.hpp"
#include "http_server.hpp"
#include "referee/games/builtin.hpp"
#include "support/http_client.hpp"
#include "support/temp_dir.hpp"

namespace referee::server {
namespace {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;

const std::string kData = std::string(REFEREE_SOURCE_DIR) + "/tests/server/data/";
const std::string kCert = kData + "tls-test-cert.pem";
const std::string kKey = kData + "tls-test-key.pem";

// An HTTPS client that trusts only the test certificate and checks that it
// names "localhost". Every step has a deadline: a server that never answers
// fails the test instead of hanging it.
class TlsClient {
 public:
  explicit TlsClient(int port) : port_(port) {
    ctx_.set_verify_mode(ssl::verify_peer);
    ctx_.load_verify_file(kCert);
    stream_.set_verify_callback(ssl::host_name_verification("localhost"));
    SSL_set_tlsext_host_name(stream_.native_handle(), "localhost");
  }
  boost::system::error_code connect() {
    boost::system::error_code ec;
    stream_.next_layer().connect({asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port_)}, ec);
    if (ec) return ec;
    return run([&](auto done) { stream_.async_handshake(ssl::stream_base::client, done); });
  }
  // One request and its answer, on the same connection as the last.
  std::optional<http::response<http::string_body>> request(const std::string& text) {
    if (run([&](auto done) { asio::async_write(stream_, asio::buffer(text), done); })) return std::nullopt;
    http::response<http::string_body> r;
    if (run([&](auto done) { http::async_read(stream_, buffer_, r, done); })) return std::nullopt;
    return r;
  }
  // Sends a request and reads its answer's header, then the body as it
  // comes until it holds `until` (a stream's events).
  std::string stream_until(const std::string& text, const std::string& until) {
    if (run([&](auto done) { asio::async_write(stream_, asio::buffer(text), done); })) return "";
    http::response_parser<http::empty_body> head;
    if (run([&](auto done) { http::async_read_header(stream_, buffer_, head, done); })) return "";
    return more_until(until);
  }
  std::string more_until(const std::string& until) {
    std::string got(static_cast<const char*>(buffer_.data().data()), buffer_.size());
    buffer_.consume(buffer_.size());
    char chunk[4096];
    while (got.find(until) == std::string::npos) {
      std::size_t n = 0;
      if (run([&](auto done) {
            stream_.async_read_some(asio::buffer(chunk), [&n, done](boost::system::error_code ec, std::size_t k) {
              n = k;
              done(ec);
            });
          }))
        break;
      got.append(chunk, n);
    }
    return got;
  }

 private:
  template <class Start>
  boost::system::error_code run(Start start) {
    boost::system::error_code result = asio::error::timed_out;
    bool done = false;
    start([&](boost::system::error_code ec, auto&&...) {
      result = ec;
      done = true;
    });
    io_.restart();
    io_.run_for(std::chrono::seconds(20));
    if (!done) {
      boost::system::error_code ignored;
      stream_.next_layer().close(ignored);
      io_.restart();
      io_.run();
    }
    return done ? result : asio::error::timed_out;
  }

  int port_;
  asio::io_context io_;
  ssl::context ctx_{ssl::context::tls_client};
  ssl::stream<tcp::socket> stream_{io_, ctx_};
  boost::beast::flat_buffer buffer_;
};

class TlsServerTest : public ::testing::Test {
 protected:
  void start(HttpLimits limits = {}) {
    api_ = std::make_unique<Api>(builtin_games(), bundled_battle_list(builtin_games()), Limits{50, 64 * 1024, 20000});
    http_ = std::make_unique<HttpServer>(*api_, 2, limits);
    std::string error;
    ASSERT_TRUE(http_->use_tls(kCert, kKey, &error)) << error;
    port_ = http_->bind("127.0.0.1", 0);
    ASSERT_GT(port_, 0);
    thread_ = std::thread([this] { http_->listen(); });
    http_->wait_until_ready();
  }
  void TearDown() override {
    if (!http_) return;
    http_->stop();
    thread_.join();
  }
  std::string request(const std::string& method, const std::string& path, const std::string& body = "",
                      const std::string& extra = "") {
    return testing::HttpClient::request_text(method, path, body, extra, true, port_);
  }

  std::unique_ptr<Api> api_;
  std::unique_ptr<HttpServer> http_;
  std::thread thread_;
  int port_ = 0;
};

TEST_F(TlsServerTest, AnswersOverHttpsWithItsCertificate) {
  start();
  TlsClient c(port_);
  ASSERT_FALSE(c.connect());
  auto battles = c.request(request("GET", "/api/battles"));
  ASSERT_TRUE(battles);
  EXPECT_EQ(battles->result_int(), 200);
  const Json list = Json::parse(battles->body());
  ASSERT_TRUE(list.contains("battles")) << battles->body().substr(0, 200);
  EXPECT_FALSE(list["battles"].empty());
  // A change from the board's own page, which is https:// now; on the same
  // connection.
  const std::string origin = "Origin: https://127.0.0.1:" + std::to_string(port_) + "\r\n";
  auto created = c.request(request("POST", "/api/games", R"({"battle": "ancients/centre_clash", "seed": 5})", origin));
  ASSERT_TRUE(created);
  EXPECT_EQ(created->result_int(), 201) << created->body();
  EXPECT_EQ(Json::parse(created->body())["system"], "ancients");
  EXPECT_EQ(api_->game_count(), 1u);
  // An http:// page of this name and port is not this server's.
  const std::string plain_origin = "Origin: http://127.0.0.1:" + std::to_string(port_) + "\r\n";
  auto refused = c.request(request("POST", "/api/games", "{}", plain_origin));
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->result_int(), 403);
  EXPECT_EQ(Json::parse(refused->body())["error"]["field"], "Origin");
  EXPECT_EQ(api_->game_count(), 1u);
}

// Live updates over TLS: the stream's read waits while its events are
// written, a ping cuts that read short and it starts again, and a change on
// another connection reaches the stream.
TEST_F(TlsServerTest, LiveUpdatesStreamOverHttps) {
  HttpLimits limits;
  limits.ping_seconds = 0.1;
  start(limits);
  TlsClient player(port_), watcher(port_);
  ASSERT_FALSE(player.connect());
  ASSERT_FALSE(watcher.connect());
  auto created = player.request(request("POST", "/api/games", "{}"));
  ASSERT_TRUE(created);
  ASSERT_EQ(created->result_int(), 201) << created->body();
  const Json game = Json::parse(created->body());
  const std::string id = game["id"];
  std::string seat = "X-Referee-Seat: ";
  for (const Json& t : game["seat_tokens"]) seat += t["token"].get<std::string>() + ",";
  seat.back() = '\r';
  seat += "\n";
  const std::string opened = watcher.stream_until(request("GET", "/api/games/" + id + "/events"), "event: presence");
  EXPECT_NE(opened.find("event: game"), std::string::npos) << opened;
  EXPECT_NE(opened.find("\"kind\":\"sync\""), std::string::npos) << opened;
  EXPECT_NE(watcher.more_until(": ping").find(": ping"), std::string::npos);
  EXPECT_NE(watcher.more_until(": ping").find(": ping"), std::string::npos);
  auto players = player.request(request("POST", "/api/games/" + id + "/players", R"({"opponent_sides": [1]})", seat));
  ASSERT_TRUE(players);
  EXPECT_EQ(players->result_int(), 200) << players->body();
  const std::string pushed = watcher.more_until("\"kind\":\"players\"");
  EXPECT_NE(pushed.find("\"kind\":\"players\""), std::string::npos) << pushed;
}

TEST_F(TlsServerTest, PlainHttpGetsNoAnswer) {
  start();
  testing::HttpClient c(port_, 10);
  ASSERT_TRUE(c.send(request("GET", "/api/battles")));
  const std::string got = c.read_to_end();
  EXPECT_EQ(got.find("HTTP/1."), std::string::npos) << got.substr(0, 200);
  EXPECT_TRUE(c.closed_by_server());
  // The server still serves HTTPS.
  TlsClient t(port_);
  ASSERT_FALSE(t.connect());
  auto battles = t.request(request("GET", "/api/battles"));
  ASSERT_TRUE(battles);
  EXPECT_EQ(battles->result_int(), 200);
}

// A client that connects and never says hello is cut off at the header's
// deadline, and the connection is closed.
TEST_F(TlsServerTest, AHandshakeNeverBegunIsCutOff) {
  HttpLimits limits;
  limits.header_seconds = 0.2;
  start(limits);
  testing::HttpClient c(port_, 20);
  ASSERT_TRUE(c.connect());
  EXPECT_TRUE(c.closed_by_server());
  EXPECT_EQ(c.read_to_end(), "");
}

// Connections that never begin their handshake do not keep a new client
// out when every connection is taken: the one waiting longest makes room.
TEST_F(TlsServerTest, SilentHandshakesMakeRoomForANewClient) {
  HttpLimits limits;
  limits.max_connections = 2;
  limits.header_seconds = 60;  // longer than the clients wait: only making room lets the third in
  start(limits);
  testing::HttpClient silent1(port_), silent2(port_);
  ASSERT_TRUE(silent1.connect());
  ASSERT_TRUE(silent2.connect());
  TlsClient c(port_);
  ASSERT_FALSE(c.connect());
  auto battles = c.request(request("GET", "/api/battles"));
  ASSERT_TRUE(battles);
  EXPECT_EQ(battles->result_int(), 200);
  EXPECT_TRUE(silent1.closed_by_server());
}

TEST(TlsFilesTest, FilesThatCannotBeUsedAreRefusedWithWhy) {
  Api api(builtin_games(), bundled_battle_list(builtin_games()));
  struct Case {
    std::string cert, key;
    bool key_at_fault;
    std::string says;
  };
  const std::vector<Case> cases = {
      {kData + "no-such-cert.pem", kKey, false, kData + "no-such-cert.pem: cannot open the file: No such file or directory"},
      {kCert, kData + "no-such-key.pem", true, kData + "no-such-key.pem: cannot open the file"},
      {kData, kKey, false, kData + ": is a directory; only regular files are read"},
      {kKey, kKey, false, kKey + " is not a PEM certificate"},
      {kCert, kCert, true, kCert + " is not a PEM private key"},
      {kData + "create.txt", kKey, false, "create.txt is not a PEM certificate"},
      {kCert, kData + "tls-other-key.pem", true, "tls-other-key.pem is not the key of the certificate " + kCert},
      // Only regular files are read (a device or FIFO could be read without end, or block).
      {"/dev/null", kKey, false, "/dev/null: is a device; only regular files are read"},
      {kCert, "/dev/zero", true, "/dev/zero: is a device; only regular files are read"},
  };
  for (const Case& k : cases) {
    HttpServer server(api, 1);
    std::string error;
    bool key_at_fault = !k.key_at_fault;
    EXPECT_FALSE(server.use_tls(k.cert, k.key, &error, &key_at_fault)) << k.cert << " " << k.key;
    EXPECT_NE(error.find(k.says), std::string::npos) << error;
    EXPECT_EQ(key_at_fault, k.key_at_fault) << error;
  }
  HttpServer server(api, 1);
  std::string error;
  EXPECT_TRUE(server.use_tls(kCert, kKey, &error)) << error;
}

// A key protected by a passphrase is refused with what to do about it, and
// no passphrase is asked for: the server may have no terminal, and one that
// waits at a prompt is a server that silently does not start.
TEST(TlsFilesTest, AnEncryptedKeyIsRefusedWithoutAPrompt) {
  test_support::TempDir tmp;
  const std::string encrypted = tmp / "encrypted-key.pem";
  {
    // What `openssl genpkey ... -aes256 -pass pass:x` writes (PKCS#8,
    // encrypted), made here: the openssl command is not installed everywhere.
    std::FILE* in = std::fopen(kKey.c_str(), "r");
    ASSERT_NE(in, nullptr);
    EVP_PKEY* key = PEM_read_PrivateKey(in, nullptr, nullptr, nullptr);
    std::fclose(in);
    ASSERT_NE(key, nullptr);
    std::FILE* out = std::fopen(encrypted.c_str(), "w");
    ASSERT_NE(out, nullptr);
    char pass[] = "x";
    const int wrote = PEM_write_PKCS8PrivateKey(out, key, EVP_aes_256_cbc(), pass, 1, nullptr, nullptr);
    std::fclose(out);
    EVP_PKEY_free(key);
    ASSERT_EQ(wrote, 1);
  }
  Api api(builtin_games(), bundled_battle_list(builtin_games()));
  HttpServer server(api, 1);
  std::string error;
  bool key_at_fault = false;
  EXPECT_FALSE(server.use_tls(kCert, encrypted, &error, &key_at_fault));
  EXPECT_TRUE(key_at_fault);
  EXPECT_NE(error.find(encrypted), std::string::npos) << error;
  EXPECT_NE(error.find("encrypted keys are not supported: decrypt it with openssl pkey"), std::string::npos) << error;
}

}  // namespace
}  // namespace referee::server
