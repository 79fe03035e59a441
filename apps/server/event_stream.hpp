// One viewer's live updates of a game: the bytes of the Server-Sent Events
// the API pushes (api.hpp, GET /api/games/{id}/events), waiting to be
// written to its connection. The API pushes from any worker thread; the HTTP
// layer takes them on its I/O thread, woken by the callback it sets. A
// viewer that falls more than `max_pending` bytes behind (a connection that
// stopped reading) is closed instead of holding memory: its board
// reconnects and resumes from the last event it had (Last-Event-ID).
#pragma once

#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

namespace referee::server {

class EventStream {
 public:
  explicit EventStream(std::size_t max_pending = std::size_t{1} << 20) : max_pending_(max_pending) {}
  ~EventStream() {
    if (released_) released_();
  }
  EventStream(const EventStream&) = delete;
  EventStream& operator=(const EventStream&) = delete;

  // Queues bytes; closes the stream instead when more than max_pending would
  // wait. Wakes the HTTP layer either way.
  void push(std::string_view bytes) {
    std::function<void()> wake;
    {
      std::lock_guard lock(mutex_);
      if (closed_) return;
      if (pending_.size() + bytes.size() > max_pending_) {
        closed_ = true;
        pending_.clear();
      } else {
        pending_.append(bytes);
      }
      wake = wakeup_;
    }
    if (wake) wake();
  }
  // What waits to be written, emptied.
  std::string take() {
    std::lock_guard lock(mutex_);
    std::string out;
    out.swap(pending_);
    return out;
  }
  bool closed() const {
    std::lock_guard lock(mutex_);
    return closed_;
  }
  void close() {
    std::function<void()> wake;
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
      wake = wakeup_;
    }
    if (wake) wake();
  }
  // The HTTP layer's: called after each push, from the pushing thread.
  void set_wakeup(std::function<void()> wakeup) {
    std::lock_guard lock(mutex_);
    wakeup_ = std::move(wakeup);
  }
  // The API's: called once when the viewer goes (the stream is destroyed).
  void set_released(std::function<void()> released) { released_ = std::move(released); }

 private:
  mutable std::mutex mutex_;
  std::string pending_;
  bool closed_ = false;
  std::size_t max_pending_;
  std::function<void()> wakeup_;
  std::function<void()> released_;
};

}  // namespace referee::server
