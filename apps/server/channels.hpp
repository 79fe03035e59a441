// The live-update streams (GET .../events), by game id: who watches each
// game, with the seats each viewer's request held, and what they are told
// (docs/api.md, "Live updates"). A client address holds at most
// `max_streams_per_client` streams.
//
// Concurrency: one mutex for the viewers, and one that orders the presence
// events, taken before it. A game's mutex may be taken before these, never
// the other way round: a game's events are published under its mutex, so
// that viewers are pushed to in the order of the game's changes. Streams are
// pushed to outside the viewers' mutex: the last reference to a stream may be
// the one a push holds, and its release takes that mutex.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "event_stream.hpp"

namespace referee::server {

class Channels {
 public:
  explicit Channels(std::size_t max_streams_per_client);
  // Streams outliving the channels (a test's) find them gone rather than
  // dangling.
  ~Channels();
  Channels(const Channels&) = delete;
  Channels& operator=(const Channels&) = delete;

  // Adds `stream` as a viewer of the game `id` (of `players` sides), holding
  // `sides`, and gives back its serial for announce(); nothing, adding
  // nothing, when `client` holds max_streams_per_client streams already.
  // Under the game's mutex, so that no event falls between what the stream
  // was given and what it is pushed.
  std::optional<std::uint64_t> add(const std::string& id, std::size_t players, const std::shared_ptr<EventStream>& stream,
           std::vector<int> sides, const std::string& client);
  // Once the viewer is added and the game's mutex let go: the viewer is
  // forgotten when its stream goes, and the others hear of it; everyone is
  // told it came. Not under a game's mutex.
  void announce(const std::string& id, EventStream& stream, std::uint64_t serial);

  // Pushes each viewer of the game `id` the text made for the sides its
  // request held (a spectator's: none), calling `text_for` once for each
  // distinct set of sides among them. Under the game's mutex, so that
  // viewers hear a game's changes in order.
  void publish(const std::string& id, const std::function<std::string(const std::vector<int>& sides)>& text_for);
  // {"connected": [viewers holding each side], "spectators": n}.
  nlohmann::json presence(const std::string& id, std::size_t players) const;

 private:
  // One open live-update stream.
  struct Viewer {
    std::weak_ptr<EventStream> stream;
    std::vector<int> sides;  // the seats its request held
    std::string client;
    std::uint64_t serial = 0;
  };
  struct Channel {
    std::size_t players = 0;
    std::vector<Viewer> viewers;
  };
  // Tells the game's viewers who is connected. Not under a game's mutex.
  void publish_presence(const std::string& id);
  // Forgets the viewer `serial` of the game `id` (its stream has gone).
  void remove(const std::string& id, std::uint64_t serial);
  nlohmann::json presence_json(const std::string& id, std::size_t players) const;  // under mutex_

  std::size_t max_streams_per_client_;
  mutable std::mutex mutex_;
  std::mutex presence_mutex_;  // taken before mutex_
  std::map<std::string, Channel> channels_;
  std::uint64_t next_viewer_ = 0;
  std::shared_ptr<Channels*> alive_;
};

}  // namespace referee::server
