// The opponent's characters (opponent_parts.hpp): each stays near its units,
// joins a fight where a Hero or Wizard may, and moves after the orders.
#include "opponent/opponent_parts.hpp"

namespace referee::warmaster::opponent_detail {

// The units a character stays near. Each Hero or Wizard, in order, takes
// the unit furthest from the General that no one has taken yet and the two
// units nearest that one; the General keeps the rest (all of them when he
// is alone). Characters that stand by the same units waste their orders on
// the units nearest them, and a flank far from the General is never
// ordered.
std::vector<std::size_t> character_group(const Ctx& c, std::size_t who) {
  const Battlefield& bf = c.bf;
  // Units that will want orders (not guns already in range): the others
  // need no character near them.
  std::vector<std::size_t> own, all;
  for (std::size_t i = 0; i < bf.units.size(); ++i)
    if (bf.units[i].side == c.side && on_table(c.s, i)) {
      all.push_back(i);
      if (wants_to_move(c, bf.units[i])) own.push_back(i);
    }
  if (own.empty()) own = all;
  const Character* general = nullptr;
  std::vector<std::size_t> helpers;  // characters, by index
  for (std::size_t ci = 0; ci < bf.characters.size(); ++ci) {
    const Character& ch = bf.characters[ci];
    if (ch.side != c.side || c.s.characters()[ci].lost) continue;
    if (ch.role == CharacterRole::General) general = &ch;
    else helpers.push_back(ci);
  }
  const Character& me = bf.characters[who];
  // A small army, or one whose General is gone: everyone stays by all of it.
  if (general == nullptr || own.size() <= 3) return own;
  std::vector<char> taken(bf.units.size(), 0);
  std::vector<std::size_t> mine;
  const Vec2 from = general->pose.position;
  std::vector<Vec2> centre(bf.units.size());
  for (std::size_t i : own) centre[i] = stands_centre(bf.units[i]);
  for (std::size_t h : helpers) {
    std::size_t far = bf.units.size();
    double fd = -1;
    for (std::size_t i : own)
      if (!taken[i] && distance(centre[i], from) > fd) fd = distance(centre[i], from), far = i;
    if (far == bf.units.size()) break;
    std::vector<std::pair<double, std::size_t>> near;
    for (std::size_t i : own)
      if (!taken[i]) near.push_back({distance(centre[i], centre[far]), i});
    std::sort(near.begin(), near.end());
    if (near.size() > 3) near.resize(3);
    for (const auto& [d, i] : near) {
      (void)d;
      taken[i] = 1;
      if (h == who) mine.push_back(i);
    }
    if (h == who) break;  // the later helpers take only what is left: not this one's
  }
  if (me.role != CharacterRole::General) return mine.empty() ? own : mine;
  for (std::size_t i : own)
    if (!taken[i]) mine.push_back(i);
  return mine.empty() ? own : mine;
}

// A Hero or Wizard with an Attacks bonus joins a unit of its own that will
// fight this turn (engaged at the end of the Command phase), touching the
// middle of a stand's rear edge: the unit with most stands, so the least
// likely to be destroyed with it (docs/rulings.md#warmaster-combat-characters).
// The General never does: if he is slain the army withdraws, which no +2 is
// worth (over the arena's games, a General who joined fights lost the
// opponent more battles than his dice won).
std::optional<Candidate> join_a_fight(const Ctx& c, const Character& ch) {
  if (ch.attacks <= 0 || ch.role == CharacterRole::General) return std::nullopt;
  const Battlefield& bf = c.bf;
  const double reach = ch.flying ? kFlyingCharacterPace : kCharacterPace;
  std::vector<std::pair<int, std::size_t>> fights;  // (-stands, unit)
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    const Unit& u = bf.units[i];
    if (u.side != c.side || !u.engaged || !on_table(c.s, i) || u.stands.empty()) continue;
    if (distance(stands_centre(u), ch.pose.position) > reach) continue;
    fights.push_back({-static_cast<int>(u.stands.size()), i});
  }
  std::sort(fights.begin(), fights.end());
  const double radius = ch.stand_size ? ch.stand_size->y / 2 : ch.base_diameter / 2;
  for (const auto& [minus_stands, i] : fights) {
    (void)minus_stands;
    const Unit& u = bf.units[i];
    for (std::size_t st = 0; st < u.stands.size(); ++st) {
      const std::array<Vec2, 4> k = u.footprint(st).corners();
      const Vec2 rear = (k[2] + k[3]) * 0.5;
      Pose to = ch.pose;
      to.position = rear + normalized(rear - u.stands[st].pose.position) * radius;
      Action a = character_move(ch, to);
      a.join = u.id;
      if (c.legal(a)) return Candidate{a, 0, fmt::format("{} joins {}, which will fight: +{} Attacks", ch.id, u.id, ch.attacks)};
    }
  }
  return std::nullopt;
}

std::optional<Candidate> next_character_move(const Ctx& c) {
  const Battlefield& bf = c.bf;
  for (std::size_t ci = 0; ci < bf.characters.size(); ++ci) {
    const Character& ch = bf.characters[ci];
    const CharacterStatus& cs = c.s.characters()[ci];
    if (ch.side != c.side || cs.moved || cs.lost || cs.frozen || !ch.joined_unit.empty()) continue;
    if (auto join = join_a_fight(c, ch)) return join;
    const std::vector<std::size_t> group = character_group(c, ci);
    if (group.empty()) continue;
    Vec2 centre{0, 0};
    for (std::size_t i : group) centre += stands_centre(bf.units[i]);
    centre = centre * (1.0 / static_cast<double>(group.size()));
    // Behind them: away from the nearest enemy.
    Vec2 away{0, c.side == 0 ? -1.0 : 1.0};
    double nearest = kFar;
    for (std::size_t e : enemies(c)) {
      const Vec2 ec = stands_centre(bf.units[e]);
      if (distance(ec, centre) < nearest) {
        nearest = distance(ec, centre);
        if (nearest > 1e-9) away = normalized(centre - ec);
      }
    }
    Vec2 goal = centre + away * 10.0;
    goal.x = std::clamp(goal.x, 2.0, bf.width - 2.0);
    goal.y = std::clamp(goal.y, 2.0, bf.height - 2.0);
    const double reach = ch.flying ? kFlyingCharacterPace : kCharacterPace;
    Vec2 step = goal - ch.pose.position;
    if (length(step) < 3.0) continue;
    if (length(step) > reach - 0.5) step = normalized(step) * (reach - 0.5);
    for (double f : {1.0, 0.7, 0.45, 0.25}) {
      Pose to = ch.pose;
      to.position += step * f;
      bool near_enemy = false;
      const double size = ch.stand_size ? length(*ch.stand_size) : ch.base_diameter;
      for (std::size_t e : units_within(c, Aabb{to.position, to.position}.inflated(size), 8.0, 1 - c.side)) {
        Character probe = ch;
        probe.pose = to;
        if (character_distance(probe, bf.units[e]).distance < 8.0) near_enemy = true;
      }
      if (near_enemy) continue;
      const Action a = character_move(ch, to);
      if (c.legal(a)) return Candidate{a, 0, ch.id + " moves behind its units"};
    }
  }
  return std::nullopt;
}

}  // namespace referee::warmaster::opponent_detail
