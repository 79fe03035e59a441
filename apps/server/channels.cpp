#include "channels.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace referee::server {

using Json = nlohmann::json;

Channels::Channels(std::size_t max_streams_per_client)
    : max_streams_per_client_(max_streams_per_client), alive_(std::make_shared<Channels*>(this)) {}

Channels::~Channels() {
  std::lock_guard lock(mutex_);
  *alive_ = nullptr;
}

std::optional<std::uint64_t> Channels::add(const std::string& id, std::size_t players,
                                           const std::shared_ptr<EventStream>& stream, std::vector<int> sides,
                                           const std::string& client) {
  std::lock_guard lock(mutex_);
  Channel& channel = channels_[id];
  channel.players = players;
  std::size_t mine = 0;
  for (const auto& [gid, c] : channels_)
    for (const Viewer& v : c.viewers) mine += v.client == client;
  if (mine >= max_streams_per_client_) {
    if (channel.viewers.empty()) channels_.erase(id);
    return std::nullopt;
  }
  const std::uint64_t serial = ++next_viewer_;
  channel.viewers.push_back({stream, std::move(sides), client, serial});
  return serial;
}

void Channels::announce(const std::string& id, EventStream& stream, std::uint64_t serial) {
  // When the viewer goes, the others hear of it.
  std::weak_ptr<Channels*> alive = alive_;
  stream.set_released([alive, id, serial] {
    auto channels = alive.lock();
    if (!channels) return;
    Channels* self = nullptr;
    {
      // ~Channels clears *alive_ under this mutex: channels still here stay
      // until the viewer is forgotten.
      Channels* c = *channels;
      if (c == nullptr) return;
      std::lock_guard lock(c->mutex_);
      if (*channels == nullptr) return;
      c->remove(id, serial);
      self = c;
    }
    self->publish_presence(id);
  });
  publish_presence(id);
}

void Channels::remove(const std::string& id, std::uint64_t serial) {
  auto it = channels_.find(id);
  if (it == channels_.end()) return;
  auto& vs = it->second.viewers;
  vs.erase(std::remove_if(vs.begin(), vs.end(), [&](const Viewer& v) { return v.serial == serial; }), vs.end());
  if (vs.empty()) channels_.erase(it);
}

// The streams are pushed to outside mutex_: the last reference to a stream
// may be one of these, and its release takes that mutex.
void Channels::publish(const std::string& id, const std::function<std::string(const std::vector<int>& sides)>& text_for) {
  std::vector<std::pair<std::vector<int>, std::shared_ptr<EventStream>>> targets;
  {
    std::lock_guard lock(mutex_);
    auto it = channels_.find(id);
    if (it != channels_.end())
      for (const Viewer& v : it->second.viewers)
        if (auto stream = v.stream.lock()) targets.emplace_back(v.sides, std::move(stream));
  }
  std::map<std::vector<int>, std::string> texts;
  for (const auto& [sides, stream] : targets) {
    auto text = texts.find(sides);
    if (text == texts.end()) text = texts.emplace(sides, text_for(sides)).first;
    stream->push(text->second);
  }
}

Json Channels::presence(const std::string& id, std::size_t players) const {
  std::lock_guard lock(mutex_);
  return presence_json(id, players);
}

Json Channels::presence_json(const std::string& id, std::size_t players) const {
  std::vector<int> connected(players, 0);
  int spectators = 0;
  auto it = channels_.find(id);
  if (it != channels_.end())
    for (const Viewer& v : it->second.viewers) {
      if (v.sides.empty()) ++spectators;
      for (int side : v.sides)
        if (side >= 0 && static_cast<std::size_t>(side) < players) ++connected[static_cast<std::size_t>(side)];
    }
  return {{"connected", connected}, {"spectators", spectators}};
}

// Presence events go out in the order they are made (presence_mutex_ held
// from counting to pushing), so a viewer's last one is the truth. The
// streams are let go only after that mutex: a stream's release publishes.
void Channels::publish_presence(const std::string& id) {
  std::vector<std::shared_ptr<EventStream>> targets;
  std::lock_guard order(presence_mutex_);
  std::string text;
  {
    std::lock_guard lock(mutex_);
    auto it = channels_.find(id);
    if (it == channels_.end()) return;
    text = fmt::format("event: presence\ndata: {}\n\n", presence_json(id, it->second.players).dump());
    for (const Viewer& v : it->second.viewers)
      if (auto stream = v.stream.lock()) targets.push_back(std::move(stream));
  }
  for (const auto& stream : targets) stream->push(text);
}

}  // namespace referee::server
