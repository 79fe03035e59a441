#include "http_front.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <fmt/format.h>

#include "embedded_files.hpp"

namespace referee::server {

namespace http = boost::beast::http;

namespace {

std::string_view sv(boost::beast::string_view s) { return {s.data(), s.size()}; }

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool iequals(std::string_view a, std::string_view b) { return a.size() == b.size() && lower(a) == lower(b); }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string_view reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 415: return "Unsupported Media Type";
    case 421: return "Misdirected Request";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Unknown";
  }
}

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

// "%2e%2E" -> "..". nullopt for a bad escape, or a decoded control character
// (a NUL in a path is never a file or a route).
std::optional<std::string> percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '%') {
      if (i + 2 >= s.size()) return std::nullopt;
      const int hi = hex(s[i + 1]), lo = hex(s[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return std::nullopt;
    out += c;
  }
  return out;
}

bool is_ipv4(std::string_view s) {
  int parts = 0;
  std::size_t i = 0;
  while (i <= s.size()) {
    std::size_t j = i;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
    if (j == i || j - i > 3 || std::stoi(std::string(s.substr(i, j - i))) > 255) return false;
    ++parts;
    if (j == s.size()) break;
    if (s[j] != '.') return false;
    i = j + 1;
  }
  return parts == 4;
}

bool is_bracketed_ipv6(std::string_view s) {
  if (s.size() < 4 || s.front() != '[' || s.back() != ']') return false;
  for (char c : s.substr(1, s.size() - 2))
    if (!std::isxdigit(static_cast<unsigned char>(c)) && c != ':' && c != '.') return false;
  return true;
}

// "localhost:8080" -> "localhost"; "[::1]:80" -> "[::1]". nullopt when the
// port is not digits or the host is empty.
std::optional<std::string> host_name(std::string_view host) {
  std::string_view name = host;
  const std::size_t colon = host.rfind(':');
  const std::size_t bracket = host.rfind(']');
  if (colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket)) {
    const std::string_view port = host.substr(colon + 1);
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos)
      return std::nullopt;
    name = host.substr(0, colon);
  }
  if (name.empty()) return std::nullopt;
  return lower(name);
}

// The raw header's lines after the request line: no folded lines, and each
// Content-Length exactly digits after at most one space.
std::optional<std::string> raw_header_problem(std::string_view raw) {
  std::size_t at = raw.find("\r\n");
  int lengths = 0;
  while (at != std::string_view::npos && at + 2 < raw.size()) {
    const std::size_t start = at + 2, end = raw.find("\r\n", start);
    if (end == std::string_view::npos || end == start) break;
    const std::string_view line = raw.substr(start, end - start);
    if (line.front() == ' ' || line.front() == '\t') return "a header line is folded (obsolete line folding is refused)";
    const std::size_t colon = line.find(':');
    if (colon != std::string_view::npos && iequals(line.substr(0, colon), "content-length")) {
      std::string_view v = line.substr(colon + 1);
      if (!v.empty() && v.front() == ' ') v.remove_prefix(1);
      if (v.empty() || v.size() > 15 || v.find_first_not_of("0123456789") != std::string_view::npos)
        return "Content-Length must be a number in digits, given once";
      ++lengths;
    }
    at = end;
  }
  if (lengths > 1) return "Content-Length must be a number in digits, given once";
  return std::nullopt;
}

// What is wrong with a request line (given through its LF), or nullopt: it
// is a method, a target and a version, one space between each, ended by
// CRLF. Beast reads "GET /a b HTTP/1.1" as the target "/a" and the version
// "b HTTP/1.1", and a bare LF as a bad version: malformed requests (400),
// not versions this server lacks (505, for a well-formed HTTP/x.y only).
std::optional<std::string> request_line_problem(std::string_view line) {
  if (line.size() < 2 || line[line.size() - 2] != '\r') return "it ends with a bare LF; the lines of a request end with CRLF";
  line.remove_suffix(2);
  const auto spaces = std::count(line.begin(), line.end(), ' ');
  if (spaces > 2) return "it has more than two spaces (a space in the path is written %20)";
  if (spaces < 2) return "expected a method, a target and a version, separated by single spaces";
  const std::string_view version = line.substr(line.rfind(' ') + 1);
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (version.size() != 8 || version.substr(0, 5) != "HTTP/" || !digit(version[5]) || version[6] != '.' || !digit(version[7]))
    return fmt::format("\"{}\" is not an HTTP version (HTTP/1.1 or HTTP/1.0)", version.substr(0, 32));
  return std::nullopt;
}

// The answer to a request a budget has no room for: its address holds its
// share (429, the address's own doing), or the addresses together hold the
// whole (503).
Response no_room(const SharedBudget& budget, const std::string& client, std::size_t bytes, std::string_view held,
                 std::string_view busy) {
  Response r = budget.past_share(client, bytes)
                   ? error_response(429, "client",
                                    fmt::format("one address may have at most {} bytes of {} at once, and this one has {}{}; "
                                                "ask again shortly",
                                                budget.share(), held, budget.held_by(client),
                                                bytes > 0 ? fmt::format(" (this request {} more)", bytes) : ""))
                   : error_response(503, "server", fmt::format("the server is busy {}; ask again shortly", busy));
  r.retry_after = 1;
  return r;
}

const char* kSecurityHeaders =
    "X-Content-Type-Options: nosniff\r\n"
    "Referrer-Policy: no-referrer\r\n"
    "Cross-Origin-Resource-Policy: same-origin\r\n"
    "Content-Security-Policy: default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "frame-ancestors 'none'\r\n";

}  // namespace

// --- Audience

Audience Audience::for_host(const std::string& listen_host, const std::vector<std::string>& allowed) {
  Audience a;
  a.hosts = {"localhost", "127.0.0.1", "[::1]"};
  std::string h = lower(listen_host);
  if (h == "0.0.0.0" || h == "::" || h == "[::]") a.any_address = true;
  if (h.find(':') != std::string::npos && h.front() != '[') h = "[" + h + "]";
  if (!h.empty()) a.hosts.push_back(h);
  for (const std::string& name : allowed) {
    std::string n = lower(name);
    if (n.find(':') != std::string::npos && n.front() != '[') n = "[" + n + "]";
    a.hosts.push_back(n);
  }
  return a;
}

bool Audience::admits(std::string_view host) const {
  const auto name = host_name(host);
  if (!name) return false;
  if (std::find(hosts.begin(), hosts.end(), *name) != hosts.end()) return true;
  // An address names no one a rebinding attack could point elsewhere.
  return any_address && (is_ipv4(*name) || is_bracketed_ipv6(*name));
}

bool Audience::own_origin(std::string_view origin, std::string_view host) const {
  const auto scheme_is = [&](std::string_view scheme) {
    return origin.size() == scheme.size() + host.size() && iequals(origin.substr(0, scheme.size()), scheme) &&
           iequals(origin.substr(scheme.size()), host);
  };
  return scheme_is("https://") || (!tls && scheme_is("http://"));
}

// --- SharedBudget

SharedBudget::SharedBudget(std::size_t total, std::size_t share) : total_(total), share_(share) {}

bool SharedBudget::admits(const std::string& client, std::size_t bytes) const {
  std::lock_guard lock(mutex_);
  const auto it = clients_.find(client);
  const std::size_t mine = it == clients_.end() ? 0 : it->second;
  // Within its share, its bytes all count towards the whole.
  return mine + bytes <= share_ && counted_ + bytes <= total_;
}

bool SharedBudget::past_share(const std::string& client, std::size_t bytes) const {
  return held_by(client) + bytes > share_;
}

void SharedBudget::take(const std::string& client, std::size_t bytes) {
  if (bytes == 0) return;
  std::lock_guard lock(mutex_);
  std::size_t& mine = clients_[client];
  counted_ += std::min(mine + bytes, share_) - std::min(mine, share_);
  mine += bytes;
  held_ += bytes;
}

void SharedBudget::give_back(const std::string& client, std::size_t bytes) {
  if (bytes == 0) return;
  std::lock_guard lock(mutex_);
  const auto it = clients_.find(client);
  if (it == clients_.end()) return;
  bytes = std::min(bytes, it->second);
  counted_ -= std::min(it->second, share_) - std::min(it->second - bytes, share_);
  it->second -= bytes;
  held_ -= bytes;
  if (it->second == 0) clients_.erase(it);  // only addresses holding bytes are kept
}

std::size_t SharedBudget::held() const {
  std::lock_guard lock(mutex_);
  return held_;
}

std::size_t SharedBudget::held_by(const std::string& client) const {
  std::lock_guard lock(mutex_);
  const auto it = clients_.find(client);
  return it == clients_.end() ? 0 : it->second;
}

FrontEnd::FrontEnd(Api& api, Audience audience, HttpLimits limits, BoardFiles board_files)
    : bodies_in_flight(limits.bodies_in_flight,
                       std::max(static_cast<std::size_t>(static_cast<double>(limits.bodies_in_flight) * limits.client_share),
                                api.limits().max_body_bytes)),
      answers_in_flight(limits.answers_in_flight,
                        static_cast<std::size_t>(static_cast<double>(limits.answers_in_flight) * limits.client_share)),
      api_(api),
      audience_(std::move(audience)),
      limits_(limits),
      board_files_(std::move(board_files)) {}

const std::string* FrontEnd::board_file(std::string_view path) const {
  for (const BoardFile& f : board_files_)
    if (f.path == path) return &f.content;
  return nullptr;
}

// --- HttpConnection

struct HttpConnection::Parser {
  http::request_parser<http::string_body> p;
  std::string path;   // decoded, without the query
  bool api = false;
  bool started = false;    // a byte of this request has come
  bool line_seen = false;  // its request line has ended within the header's limit
  bool line_checked = false;  // request_line_problem has seen it
  std::string client;      // who it comes from (request_client)
};

std::string canonical_address(std::string_view text) {
  boost::system::error_code ec;
  auto address = boost::asio::ip::make_address(std::string(text), ec);
  if (ec) return "";
  if (address.is_v6() && address.to_v6().is_v4_mapped()) address = address.to_v6().to_v4();
  return address.to_string();
}

std::optional<std::string> request_client(const Audience& audience, const std::string& peer,
                                          std::optional<std::string_view> forwarded_for, std::string& problem) {
  const auto& trusted = audience.trusted_proxies;
  if (!forwarded_for || std::find(trusted.begin(), trusted.end(), peer) == trusted.end()) return peer;
  const std::size_t comma = forwarded_for->rfind(',');
  std::string_view last = trim(comma == std::string_view::npos ? *forwarded_for : forwarded_for->substr(comma + 1));
  // nginx writes a bare address; some proxies bracket IPv6 ("[2001:db8::1]").
  if (last.size() > 2 && last.front() == '[' && last.back() == ']') last = last.substr(1, last.size() - 2);
  std::string client = canonical_address(last);
  if (client.empty()) {
    problem = fmt::format("the proxy named the client \"{}\", which is not an IP address",
                          std::string(last.substr(0, 64)));
    return std::nullopt;
  }
  return client;
}

HttpConnection::HttpConnection(FrontEnd& front, std::string client)
    : front_(front), client_(std::move(client)), request_client_(client_) {}

HttpConnection::~HttpConnection() {
  release_body();
  front_.answers_in_flight.give_back(out_client_, reserved_out_);
}

void HttpConnection::release_body() {
  front_.bodies_in_flight.give_back(body_client_, reserved_body_);
  reserved_body_ = 0;
}

std::size_t HttpConnection::room() const {
  const std::size_t cap = front_.limits().buffer_bytes;
  return in_.size() >= cap ? 0 : cap - in_.size();
}

void HttpConnection::receive(std::string_view bytes) { in_.append(bytes); }
void HttpConnection::receive_eof() { eof_ = true; }

void HttpConnection::written() {
  front_.answers_in_flight.give_back(out_client_, reserved_out_);
  reserved_out_ = 0;
  out_.clear();
}

HttpConnection::Phase HttpConnection::phase() const {
  if (!out_.empty()) return Phase::writing;
  if (closing_) return Phase::closed;
  if (stream_) return Phase::streaming;
  if (job_ready_ || job_taken_) return Phase::handling;
  if (parser_ && head_checked_) return Phase::body;
  if ((parser_ && parser_->started) || !in_.empty()) return Phase::header;
  return Phase::idle;
}

void HttpConnection::queue(std::string_view bytes) {
  // What is queued counts as the address's whose request it answers, until written.
  if (reserved_out_ == 0) out_client_ = request_client_;
  out_ += bytes;
  front_.answers_in_flight.take(out_client_, out_.size() - reserved_out_);
  reserved_out_ = out_.size();
}

void HttpConnection::time_out() {
  const Phase ph = phase();
  if (ph == Phase::streaming) {
    queue(": ping\n\n");
  } else if (ph == Phase::header || ph == Phase::body) {
    const Response r = error_response(408, "request", "the request did not arrive in time");
    refuse(r, true);
  } else {
    written();
    closing_ = true;
  }
}

void HttpConnection::respond(int status, std::string body, std::string content_type, bool close,
                             std::string_view extra_headers, bool no_store) {
  if (close || !keep_alive_) closing_ = true;
  std::string head = fmt::format("HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n{}Cache-Control: {}\r\n{}",
                                 status, reason(status), content_type, body.size(), kSecurityHeaders,
                                 no_store ? "no-store" : "no-cache", extra_headers);
  if (closing_) head += "Connection: close\r\n";
  head += "\r\n";
  queue(head);
  if (!head_request_) queue(body);
}

void HttpConnection::refuse(const Response& r, bool close) {
  std::string extra;
  if (!r.allow.empty()) extra += "Allow: " + r.allow + "\r\n";
  if (r.retry_after > 0) extra += fmt::format("Retry-After: {}\r\n", r.retry_after);
  respond(r.status, r.body, r.content_type, close, extra);
  // Whatever else came on the connection is not read.
  parser_.reset();
  head_checked_ = false;
  release_body();
}

void HttpConnection::start_request() {
  parser_ = std::make_unique<Parser>();
  parser_->p.header_limit(static_cast<std::uint32_t>(front_.limits().header_bytes));
  parser_->p.body_limit(front_.api().limits().max_body_bytes);
  parser_->p.eager(false);
  head_checked_ = false;
  head_request_ = false;
  request_client_ = client_;  // until its header names another (X-Forwarded-For)
}

HttpConnection::Step HttpConnection::step() {
  for (;;) {
    if (!out_.empty()) return Step::write;
    if (closing_) return Step::close;
    if (stream_) {
      // A live-update stream: the client says nothing more (what it sends is
      // dropped); the stream ends when it goes, or when the API closes it.
      in_.clear();
      const std::string more = stream_->take();
      if (!more.empty()) {
        queue(more);
        continue;
      }
      if (eof_ || stream_->closed()) {
        stream_.reset();
        closing_ = true;
        continue;
      }
      return Step::stream;
    }
    if (job_ready_ || job_taken_) return Step::handle;
    if (!parser_) {
      if (in_.empty()) {
        if (!eof_) return Step::read;
        closing_ = true;
        continue;
      }
      start_request();
    }
    Parser& ps = *parser_;
    if (!in_.empty()) ps.started = true;
    // The request line is checked once it has come: Beast would wait for the
    // end of the header, which a client ending lines with a bare LF never sends.
    if (!ps.line_checked) {
      const std::size_t lf = in_.find('\n');
      ps.line_checked = lf < front_.limits().header_bytes;
      const auto problem = ps.line_checked ? request_line_problem(std::string_view(in_).substr(0, lf + 1)) : std::nullopt;
      if (problem) {
        refuse(error_response(400, "request line", *problem), true);
        continue;
      }
    }
    // Beast takes the request line once it is whole: then a header over the
    // limit is the fields' fault (431), else the line's (414).
    if (!ps.line_seen) ps.line_seen = in_.find("\r\n") < front_.limits().header_bytes;
    boost::beast::error_code ec = http::error::need_more;
    std::size_t used = 0;
    const bool header_before = ps.p.is_header_done();
    if (!in_.empty()) used = ps.p.put(boost::asio::const_buffer(in_.data(), in_.size()), ec);
    std::string raw_header;
    if (!header_before && ps.p.is_header_done()) raw_header = in_.substr(0, used);
    in_.erase(0, used);
    if (ec == http::error::need_more) {
      if (eof_) {
        if (ps.started) refuse(error_response(400, "request", "the connection closed before the request was complete"), true);
        else closing_ = true;
        continue;
      }
      if (room() == 0) {
        refuse(error_response(400, "request", "a line of the request (a chunk's size, a trailer) is longer than this server reads"), true);
        continue;
      }
      return Step::read;
    }
    if (ec) {
      int status = 400;
      std::string field = "request", problem = "the request is not well-formed HTTP/1.1: " + ec.message();
      if (ec == http::error::header_limit) {
        const bool line_done = ps.line_seen;
        status = line_done ? 431 : 414;
        problem = line_done ? fmt::format("the request's header is longer than the {} bytes this server reads",
                                          front_.limits().header_bytes)
                            : fmt::format("the request line is longer than the {} bytes this server reads",
                                          front_.limits().header_bytes);
      } else if (ec == http::error::bad_version) {
        status = 505;
        field = "version";
        problem = "this server speaks HTTP/1.1 and HTTP/1.0";
      } else if (ec == http::error::body_limit) {
        status = 413;
        field = "body";
        problem = fmt::format("the body is longer than the {} bytes this server accepts", front_.api().limits().max_body_bytes);
      }
      refuse(error_response(status, field, problem), true);
      continue;
    }
    if (ps.p.is_header_done() && !head_checked_) {
      if (auto problem = raw_header_problem(raw_header)) {
        refuse(error_response(400, "header", *problem), true);
        continue;
      }
      head_checked_ = true;
      if (!check_head()) continue;
      ps.p.eager(true);
    }
    if (ps.p.is_done()) finish_request();
  }
}

namespace {

using RequestHead = http::request<http::string_body>;

// Why a request's head is refused: the answer's status, the field at fault,
// the problem, and for a 405 the methods allowed.
struct HeadRefusal {
  int status = 400;
  std::string field, problem, allow;
};

// The target: origin-form, or absolute-form whose authority is the host.
// Gives the host and the target's path and query, or why the request is refused.
std::optional<HeadRefusal> read_request_target(const RequestHead& msg, const Audience& audience, std::string& host,
                                               std::string_view& target) {
  target = sv(msg.target());
  if (msg.count(http::field::host) > 1) return HeadRefusal{400, "Host", "given more than once", {}};
  if (msg.count(http::field::host) == 1) host = std::string(trim(sv(msg[http::field::host])));
  if (target.size() > 7 && iequals(target.substr(0, 7), "http://")) {
    target.remove_prefix(7);
    const std::size_t slash = target.find('/');
    host = std::string(target.substr(0, slash));
    if (host.find('@') != std::string::npos) return HeadRefusal{400, "target", "a user name in the request target", {}};
    target = slash == std::string_view::npos ? std::string_view("/") : target.substr(slash);
  } else if (target.empty() || target.front() != '/') {
    if (target == "*" && msg.method() == http::verb::options)
      return HeadRefusal{405, "method", "OPTIONS is not answered here", "GET, HEAD, POST, DELETE"};
    return HeadRefusal{400, "target", "expected a path beginning with /", {}};
  }
  if (host.empty() && msg.version() == 11) return HeadRefusal{400, "Host", "missing (HTTP/1.1 requires it)", {}};
  if (!host.empty() && !audience.admits(host))
    return HeadRefusal{421, "Host",
                       "this server does not answer to \"" + host +
                           "\" (it answers to its own address and loopback names; see --allow-host)",
                       {}};
  return std::nullopt;
}

// Changes come only from this server's own pages, or from no page.
std::optional<HeadRefusal> cross_site_refusal(const RequestHead& msg, const Audience& audience, const std::string& host,
                                              const std::string& path, bool has_body) {
  if (msg.count(http::field::origin) > 1) return HeadRefusal{403, "Origin", "given more than once", {}};
  if (msg.count(http::field::origin) == 1 && !audience.own_origin(trim(sv(msg[http::field::origin])), host))
    return HeadRefusal{403, "Origin",
                       "a request from another site (" + std::string(sv(msg[http::field::origin])) +
                           ") may not change anything here",
                       {}};
  const auto site = msg.find("Sec-Fetch-Site");
  if (site != msg.end() && !iequals(trim(sv(site->value())), "same-origin") &&
      !iequals(trim(sv(site->value())), "none"))
    return HeadRefusal{403, "Sec-Fetch-Site", "a request from another site may not change anything here", {}};
  const bool import = path == "/api/games/import";
  if (msg.count(http::field::content_type) > 0) {
    const std::string_view ct = sv(msg[http::field::content_type]);
    const std::string type = lower(trim(ct.substr(0, ct.find(';'))));
    if (type != "application/json" && !(import && type == "application/x-ndjson"))
      return HeadRefusal{415, "Content-Type",
                         std::string("expected application/json") + (import ? " or application/x-ndjson" : "") +
                             ", got \"" + std::string(ct) + "\"",
                         {}};
  } else if (has_body) {
    return HeadRefusal{415, "Content-Type", "a body needs Content-Type: application/json", {}};
  }
  return std::nullopt;
}

// Several X-Forwarded-For lines are one list (RFC 9110, 5.3): its last
// address is the last line's.
std::optional<std::string_view> last_forwarded_for(const RequestHead& msg) {
  std::optional<std::string_view> forwarded;
  for (auto it = msg.find("X-Forwarded-For"); it != msg.end() && iequals(sv(it->name_string()), "X-Forwarded-For"); ++it)
    forwarded = sv(it->value());
  return forwarded;
}

}  // namespace

bool HttpConnection::check_head() {
  Parser& ps = *parser_;
  const auto& msg = ps.p.get();
  const bool has_body = ps.p.chunked() || (ps.p.content_length() && *ps.p.content_length() > 0);
  // A refusal before the body is read closes the connection (the body would
  // be read as the next request); without a body it may stay open.
  const bool unread = !ps.p.is_done();
  head_request_ = msg.method() == http::verb::head;
  auto no = [&](const HeadRefusal& refusal) {
    Response r = error_response(refusal.status, refusal.field, refusal.problem);
    r.allow = refusal.allow;
    refuse(r, unread);
    return false;
  };
  if (msg.version() != 11 && msg.version() != 10)
    return no({505, "version", "this server speaks HTTP/1.1 and HTTP/1.0", {}});
  keep_alive_ = msg.version() == 11 && msg.keep_alive();
  if (static_cast<std::size_t>(std::distance(msg.begin(), msg.end())) > front_.limits().header_fields)
    return no({431, "header", fmt::format("more than {} header fields", front_.limits().header_fields), {}});
  if (msg.count(http::field::transfer_encoding) > 0 &&
      (msg.count(http::field::transfer_encoding) > 1 || !iequals(trim(sv(msg[http::field::transfer_encoding])), "chunked"))) {
    // The body's framing is unknown: nothing after it can be read.
    refuse(error_response(501, "Transfer-Encoding", "only chunked is understood"), true);
    return false;
  }

  std::string_view target;
  std::string host;
  if (auto refused = read_request_target(msg, front_.audience(), host, target)) return no(*refused);

  const std::string_view raw_path = target.substr(0, target.find('?'));
  const auto path = percent_decode(raw_path);
  if (!path) return no({400, "path", "a bad percent escape or a control character in the path", {}});
  ps.path = *path;
  ps.api = ps.path.rfind("/api/", 0) == 0 || ps.path == "/api";
  std::string allow = ps.api ? Api::allowed_methods(ps.path) : "GET, HEAD";
  if (allow.empty()) return no({404, "path", "no such route: " + ps.path, {}});
  const std::string method(sv(msg.method_string()));
  const std::string as = head_request_ ? "GET" : method;
  if (!method_listed(allow, as))
    return no({405, "method", fmt::format("{} {} is not a route; use {}", method, ps.path, allow), allow});

  if (as != "GET") {
    if (auto refused = cross_site_refusal(msg, front_.audience(), host, ps.path, has_body)) return no(*refused);
  }
  std::string problem;
  const auto client = request_client(front_.audience(), client_, last_forwarded_for(msg), problem);
  if (!client) return no({400, "X-Forwarded-For", problem, {}});
  ps.client = *client;
  request_client_ = ps.client;
  if (ps.api) {
    if (auto refused = front_.api().admit(ps.client)) {
      refuse(*refused, unread);
      return false;
    }
    if (!front_.answers_in_flight.admits(ps.client, 0)) {
      refuse(no_room(front_.answers_in_flight, ps.client, 0, "answers not yet read", "writing answers"), unread);
      return false;
    }
  }
  if (has_body) {
    const std::size_t need = ps.p.content_length() ? static_cast<std::size_t>(*ps.p.content_length())
                                                   : front_.api().limits().max_body_bytes;
    if (!front_.bodies_in_flight.admits(ps.client, need)) {
      refuse(no_room(front_.bodies_in_flight, ps.client, need, "requests being read", "reading other requests"), true);
      return false;
    }
    front_.bodies_in_flight.take(ps.client, need);
    reserved_body_ = need;
    body_client_ = ps.client;
    const auto expect = msg.find(http::field::expect);
    if (expect != msg.end() && iequals(trim(sv(expect->value())), "100-continue") && msg.version() == 11)
      out_ += "HTTP/1.1 100 Continue\r\n\r\n";
  }
  return true;
}

void HttpConnection::finish_request() {
  ++requests_;
  if (requests_ >= front_.limits().max_requests_per_connection) keep_alive_ = false;
  auto& msg = parser_->p.get();
  const std::string method(sv(msg.method_string()));
  if (parser_->api) {
    job_ = Request{head_request_ ? "HEAD" : method, parser_->path, std::move(msg.body()), parser_->client};
    // The headers the API reads (seats, invitations, resuming a stream). A
    // token is never written to any log.
    auto header = [&](std::string_view name) {
      const auto it = msg.find(boost::beast::string_view(name.data(), name.size()));
      return it == msg.end() ? std::string() : std::string(sv(it->value()));
    };
    job_.seat = header("X-Referee-Seat");
    job_.invite = header("X-Referee-Invite");
    job_.last_event_id = header("Last-Event-ID");
    job_ready_ = true;
    parser_.reset();
    return;
  }
  release_body();
  std::string path = parser_->path.substr(1);
  parser_.reset();
  if (path.empty()) path = "index.html";
  const bool safe = path.find("..") == std::string::npos && path.find('\\') == std::string::npos && path.front() != '/';
  const EmbeddedFile* f = safe ? find_embedded("web/app/" + path) : nullptr;
  const std::string* content = f == nullptr && safe ? front_.board_file(path) : nullptr;
  if (f == nullptr && content == nullptr) {
    const Response r = error_response(404, "path", "no such file: /" + path);
    respond(404, r.body, r.content_type, false);
    return;
  }
  respond(200, f ? std::string(f->content) : *content, std::string(mime_type(path)), false, {}, false);
}

Request HttpConnection::take_job() {
  job_ready_ = false;
  job_taken_ = true;
  return std::move(job_);
}

void HttpConnection::answer(const Response& r) {
  job_taken_ = false;
  release_body();
  if (r.stream && r.status == 200 && !head_request_) {
    // Server-Sent Events: no length, the stream ends with the connection.
    keep_alive_ = false;
    queue(fmt::format("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n{}Cache-Control: no-store\r\n"
                      "X-Accel-Buffering: no\r\nConnection: close\r\n\r\n",
                      kSecurityHeaders));
    stream_ = r.stream;
    return;
  }
  std::string extra;
  if (!r.allow.empty()) extra += "Allow: " + r.allow + "\r\n";
  if (r.retry_after > 0) extra += fmt::format("Retry-After: {}\r\n", r.retry_after);
  respond(r.status, r.body, r.content_type, false, extra);
}

std::string serve_bytes(FrontEnd& front, std::string_view bytes, const std::string& client) {
  HttpConnection c(front, client);
  std::string wrote;
  std::size_t at = 0;
  for (;;) {
    switch (c.step()) {
      case HttpConnection::Step::read: {
        const std::size_t n = std::min(c.room(), bytes.size() - at);
        if (n == 0) {
          c.receive_eof();
        } else {
          c.receive(bytes.substr(at, n));
          at += n;
        }
        break;
      }
      case HttpConnection::Step::write:
        wrote += c.output();
        c.written();
        break;
      case HttpConnection::Step::handle:
        c.answer(front.api().handle(c.take_job()));
        break;
      case HttpConnection::Step::stream:
        // What the stream had is written; the client then goes.
        c.receive_eof();
        break;
      case HttpConnection::Step::close:
        return wrote;
    }
  }
}

}  // namespace referee::server
