// The HTTP front end of `referee serve`, with no sockets in it: bytes in,
// bytes out (http_server.cpp puts Asio around it; the tests and
// fuzz/server_http_fuzz.cpp give it bytes directly).
//
// Requests are parsed by Boost.Beast's parser (Debian's Boost), and every
// one is bounded before anything of it is acted on:
//   - bytes: the request line and headers together at most
//     HttpLimits::header_bytes (431, or 414 when the request line alone is
//     longer) and HttpLimits::header_fields fields (431); a body at most the
//     API's body limit, chunked or not (413, before it is read when
//     Content-Length says so); unparsed input per connection at most
//     HttpLimits::buffer_bytes; the bodies being read and the answers being
//     written across all connections at most HttpLimits::bodies_in_flight
//     and HttpLimits::answers_in_flight (503 with Retry-After), and one
//     client address's at most HttpLimits::client_share of each (429 with
//     Retry-After), so that one address cannot have another refused;
//   - framing: a request line of a method, a target and a version, one space
//     between each, ended by CRLF (400 naming the request line; 505 only for
//     a well-formed version other than 1.1 and 1.0); one Content-Length of
//     digits only, Transfer-Encoding only
//     "chunked" (and not with a Content-Length), no line folding: anything
//     else is 400 and the connection closes. A request with neither has no
//     body (RFC 9112), so a body-less POST is answered at once. Pipelined
//     requests are answered in order. Range is ignored: an answer is whole;
//   - who: Host must name this server (loopback names, the --host address,
//     --allow-host names; 421 otherwise), so a DNS-rebinding page cannot use
//     it. A request that changes something (any method but GET and HEAD)
//     must not come from another origin (Origin, when sent, must be this
//     server's own, and Sec-Fetch-Site same-origin or none: 403), and a body
//     must be Content-Type application/json (application/x-ndjson also for
//     /api/games/import: 415): a cross-site form or no-cors fetch can send
//     neither without the browser asking first, which this server refuses;
//   - methods: a route answers only its methods, and any other (OPTIONS,
//     TRACE, PUT, ...) gets 405 with Allow; HEAD is GET without the body;
//   - time: the caller (http_server.cpp) cuts a connection off when a phase
//     (idle, header, body, writing) outlasts its HttpLimits deadline, or a
//     body stops coming for HttpLimits::body_stall_seconds, with 408 when
//     part of a request had come.
// Every answer, the front end's own errors included, carries nosniff, a
// Content-Security-Policy and Cross-Origin-Resource-Policy: same-origin.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api.hpp"
#include "boards.hpp"

namespace referee::server {

struct HttpLimits {
  std::size_t header_bytes = 16 << 10;  // request line and header fields together
  std::size_t header_fields = 100;
  std::size_t buffer_bytes = 64 << 10;  // input held per connection: chunk lines, pipelined requests
  std::size_t max_requests_per_connection = 1000;
  std::size_t max_connections = 8192;  // and no more than the descriptors allow
  std::size_t bodies_in_flight = std::size_t{128} << 20;   // all connections' bodies being read
  std::size_t answers_in_flight = std::size_t{256} << 20;  // all connections' answers being written
  // The most of each of those two one client address may hold (a quarter:
  // 32 MiB of bodies, 64 MiB of answers; of bodies, at least one of the
  // largest the API accepts), so that it takes four addresses at their share
  // to have a fifth refused, not one (SharedBudget).
  double client_share = 0.25;
  // Deadlines, in seconds, for each phase of a connection.
  double idle_seconds = 10;    // waiting for a request (keep-alive)
  double header_seconds = 10;  // from a request's first byte to the end of its header
  double body_seconds = 30;    // from the end of the header to the end of the body
  // A body that has not moved for this long (no byte since the header or the
  // last byte) is cut off with 408 and its share of bodies_in_flight freed:
  // a body announced and never sent holds its budget seconds, not 30.
  double body_stall_seconds = 5;
  double write_seconds = 30;   // writing one answer
  double ping_seconds = 15;    // a live-update stream's keep-alive comment
};

// The names this server answers to (the Host check).
struct Audience {
  std::vector<std::string> hosts;  // lower case; IPv6 addresses in brackets: "[::1]"
  bool any_address = false;        // listening on every address: any IP address is this server
  // Serving HTTPS itself (--tls-cert): this server's pages are https:// only.
  // Without it, a page may be http:// (direct) or https:// (through a proxy
  // that ends TLS: docs/deploy.md); only a holder of the name's certificate
  // can serve the latter.
  bool tls = false;
  // --trusted-proxy: the addresses of reverse proxies whose X-Forwarded-For
  // names the client (docs/deploy.md, "What a proxy changes"); as
  // canonical_address() writes them.
  std::vector<std::string> trusted_proxies;
  // Loopback names, `listen_host` (the --host address; 0.0.0.0 or :: sets
  // any_address) and `allowed` (--allow-host names).
  static Audience for_host(const std::string& listen_host, const std::vector<std::string>& allowed = {});
  bool admits(std::string_view host) const;  // a Host value, with or without its port
  // An Origin value names a page of this server reached as `host` (the
  // request's Host).
  bool own_origin(std::string_view origin, std::string_view host) const;
};

// An IP address as the server writes a peer's ("192.0.2.7", "2001:db8::1";
// an IPv4-mapped IPv6 address as IPv4), or "" when `text` is not one.
std::string canonical_address(std::string_view text);

// Who a request comes from, for the per-client bounds: the peer, or, when the
// peer is a trusted proxy, the last address of X-Forwarded-For (its last
// line, given here when the request has one: the address that proxy added;
// any before it came from the client and may be forged). Null with `problem`
// set when that is not an IP address.
std::optional<std::string> request_client(const Audience& audience, const std::string& peer,
                                          std::optional<std::string_view> forwarded_for, std::string& problem);

// Bytes held across connections (bodies being read, answers being written),
// bounded in all and per client address. An address may take bytes while it
// holds at most its share and the whole stays within the total; and the
// whole counts each address's bytes only up to its share, so bytes an
// address holds past its share (answers queued before it was refused, which
// must still be written) never have another address refused.
class SharedBudget {
 public:
  SharedBudget(std::size_t total, std::size_t share);
  // Whether `client` may take `bytes` more.
  bool admits(const std::string& client, std::size_t bytes) const;
  // When admits() says no, whether it is the address's share that is full
  // (else it is the whole).
  bool past_share(const std::string& client, std::size_t bytes) const;
  void take(const std::string& client, std::size_t bytes);
  void give_back(const std::string& client, std::size_t bytes);
  std::size_t held() const;  // every byte, all addresses
  std::size_t held_by(const std::string& client) const;
  std::size_t share() const { return share_; }

 private:
  mutable std::mutex mutex_;
  std::size_t total_;
  std::size_t share_;
  std::size_t held_ = 0;
  std::size_t counted_ = 0;  // each address's bytes up to its share
  std::unordered_map<std::string, std::size_t> clients_;  // addresses holding bytes
};

class FrontEnd {
 public:
  // `board_files`: files of boards that are not in web/app (boards.hpp).
  FrontEnd(Api& api, Audience audience, HttpLimits limits = {}, BoardFiles board_files = {});
  Api& api() { return api_; }
  // The board file at `path` (not in web/app), or null.
  const std::string* board_file(std::string_view path) const;
  const HttpLimits& limits() const { return limits_; }
  const Audience& audience() const { return audience_; }
  // Bytes of bodies being read and answers being written, all connections,
  // by client address.
  SharedBudget bodies_in_flight;
  SharedBudget answers_in_flight;

 private:
  Api& api_;
  Audience audience_;
  HttpLimits limits_;
  BoardFiles board_files_;
};

// One connection's requests and answers. Give it what the socket received;
// step() says what to do next.
class HttpConnection {
 public:
  HttpConnection(FrontEnd& front, std::string client);
  ~HttpConnection();
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  enum class Step {
    read,    // give it more bytes (at most room()), or receive_eof()
    write,   // write output(), then call written()
    handle,  // run the API on take_job() (it may take a while), then answer()
    close,   // done: close the connection
    stream,  // a live-update stream is open (stream()): wait until it has
             // bytes (its wakeup), reading only to see the client go
  };
  Step step();

  std::size_t room() const;
  void receive(std::string_view bytes);
  void receive_eof();
  const std::string& output() const { return out_; }
  void written();
  Request take_job();
  void answer(const Response& response);

  // The phase, for the caller's deadlines.
  enum class Phase { idle, header, body, handling, writing, streaming, closed };
  Phase phase() const;
  // The phase's deadline has passed: 408 if part of a request had come, then
  // the connection closes. While streaming, the deadline is the keep-alive
  // ping's (HttpLimits::ping_seconds): a comment line goes out, which also
  // finds a client that has gone without closing.
  void time_out();
  // The live-update stream being served, or null.
  const std::shared_ptr<EventStream>& stream() const { return stream_; }

 private:
  struct Parser;
  void start_request();
  // The checks made once the header is in; false when a refusal was queued.
  bool check_head();
  void finish_request();
  void respond(int status, std::string body, std::string content_type, bool close, std::string_view extra_headers = {},
               bool no_store = true);
  void refuse(const Response& r, bool close);

  FrontEnd& front_;
  std::string client_;
  std::unique_ptr<Parser> parser_;
  std::string in_;
  std::string out_;
  bool eof_ = false;
  bool closing_ = false;
  bool head_checked_ = false;
  bool job_ready_ = false;    // a request waits to be taken
  bool job_taken_ = false;    // its answer is awaited
  bool head_request_ = false;  // HEAD: the answer without its body
  bool keep_alive_ = true;
  std::size_t requests_ = 0;
  // What this connection holds of the budgets, and for which address: the
  // request's client (behind a trusted proxy, one connection carries many).
  std::size_t reserved_body_ = 0;
  std::string body_client_;
  std::size_t reserved_out_ = 0;
  std::string out_client_;
  std::string request_client_;  // the request being read or answered
  Request job_;
  std::shared_ptr<EventStream> stream_;
  // Queues bytes to write, counted in FrontEnd::answers_in_flight.
  void queue(std::string_view bytes);
  // Gives back the body's reservation (read, answered, or never to be read).
  void release_body();
};

// Serves `bytes` as if a client had sent them on one connection and then
// closed its side, the API answering in turn; returns every byte the server
// wrote. For tests and the fuzz target.
std::string serve_bytes(FrontEnd& front, std::string_view bytes, const std::string& client = "127.0.0.1");

}  // namespace referee::server
