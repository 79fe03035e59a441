// A small HTTP/1.1 client over a plain socket, for the tests, the benchmark
// and the load and probe tools: it sends exactly the bytes it is given (a
// hostile client's too) and reads answers framed by Content-Length. Every
// read has a deadline, so a server that never answers fails a test instead
// of hanging it.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace referee::testing {

struct HttpReply {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  // names in lower case
  std::string body;
  // The first value of a header (name in lower case), or "".
  std::string header(std::string_view name) const {
    for (const auto& [n, v] : headers)
      if (n == name) return v;
    return "";
  }
  std::size_t count(std::string_view name) const {
    std::size_t n = 0;
    for (const auto& h : headers) n += h.first == name;
    return n;
  }
};

class HttpClient {
 public:
  explicit HttpClient(int port, double timeout_seconds = 20) : port_(port), timeout_(timeout_seconds) {}
  ~HttpClient() { close(); }
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  bool connect() {
    close();
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd_ < 0) return false;
    int yes = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port_));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      close();
      return false;
    }
    buffer_.clear();
    eof_ = false;
    return true;
  }
  bool connected() const { return fd_ >= 0; }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  // Stops sending (a half-close): the server sees the end of the request stream.
  void shutdown_send() { ::shutdown(fd_, SHUT_WR); }

  bool send(std::string_view bytes) {
    if (fd_ < 0 && !connect()) return false;
    std::size_t sent = 0;
    while (sent < bytes.size()) {
      const ssize_t k = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (k <= 0) return false;
      sent += static_cast<std::size_t>(k);
    }
    return true;
  }

  // One answer; nullopt when the connection closed or the deadline passed
  // first. `head`: the answer to a HEAD, which has no body.
  std::optional<HttpReply> read_reply(bool head = false) {
    const auto deadline = deadline_from_now();
    std::size_t end;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos)
      if (!fill(deadline)) return std::nullopt;
    HttpReply r;
    const std::string head_text = buffer_.substr(0, end);
    buffer_.erase(0, end + 4);
    std::size_t line_end = head_text.find("\r\n");
    const std::string status_line = head_text.substr(0, line_end);
    if (status_line.size() < 12 || status_line.rfind("HTTP/1.", 0) != 0) return std::nullopt;
    r.status = std::stoi(status_line.substr(9, 3));
    while (line_end != std::string::npos) {
      const std::size_t start = line_end + 2;
      line_end = head_text.find("\r\n", start);
      const std::string line = head_text.substr(start, line_end == std::string::npos ? std::string::npos : line_end - start);
      const std::size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      std::string name = line.substr(0, colon), value = line.substr(colon + 1);
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      while (!value.empty() && value.front() == ' ') value.erase(0, 1);
      r.headers.emplace_back(std::move(name), std::move(value));
    }
    if (r.status == 100) return read_reply(head);
    const std::size_t length = r.header("content-length").empty() ? 0 : std::stoul(r.header("content-length"));
    if (!head) {
      while (buffer_.size() < length)
        if (!fill(deadline)) return std::nullopt;
      r.body = buffer_.substr(0, length);
      buffer_.erase(0, length);
    }
    return r;
  }

  // Reads until `needle` has come, or the deadline; then takes what came up
  // to and including it (a stream's events, one at a time).
  std::optional<std::string> read_through(std::string_view needle) {
    const auto deadline = deadline_from_now();
    std::size_t at;
    while ((at = buffer_.find(needle)) == std::string::npos)
      if (!fill(deadline)) return std::nullopt;
    std::string out = buffer_.substr(0, at + needle.size());
    buffer_.erase(0, at + needle.size());
    return out;
  }

  // Everything until the server closes (or the deadline).
  std::string read_to_end() {
    const auto deadline = deadline_from_now();
    while (fill(deadline)) {
    }
    std::string out;
    out.swap(buffer_);
    return out;
  }

  // True when the server has closed the connection (a read sees its end)
  // within the deadline.
  bool closed_by_server() {
    const auto deadline = deadline_from_now();
    while (fill(deadline)) {
    }
    return eof_;
  }

  // A request with the usual headers; `extra` is more header lines, each
  // ending in \r\n.
  static std::string request_text(std::string_view method, std::string_view path, std::string_view body = {},
                                  std::string_view extra = {}, bool json = true, int port = 0) {
    std::string r = std::string(method) + " " + std::string(path) + " HTTP/1.1\r\nHost: 127.0.0.1" +
                    (port > 0 ? ":" + std::to_string(port) : "") + "\r\n" + std::string(extra);
    if (!body.empty() || method == "POST") {
      if (json) r += "Content-Type: application/json\r\n";
      r += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    }
    return r + "\r\n" + std::string(body);
  }
  std::optional<HttpReply> request(std::string_view method, std::string_view path, std::string_view body = {},
                                   std::string_view extra = {}) {
    if (fd_ < 0 && !connect()) return std::nullopt;
    if (!send(request_text(method, path, body, extra, true, port_))) return std::nullopt;
    return read_reply(method == "HEAD");
  }

 private:
  std::chrono::steady_clock::time_point deadline_from_now() const {
    return std::chrono::steady_clock::now() +
           std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(timeout_));
  }
  bool fill(std::chrono::steady_clock::time_point deadline) {
    if (fd_ < 0 || eof_) return false;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
    char buf[65536];
    const ssize_t k = ::recv(fd_, buf, sizeof buf, 0);
    if (k <= 0) {
      eof_ = true;
      return false;
    }
    buffer_.append(buf, static_cast<std::size_t>(k));
    return true;
  }

  int port_;
  double timeout_;
  int fd_ = -1;
  bool eof_ = false;
  std::string buffer_;
};

}  // namespace referee::testing
