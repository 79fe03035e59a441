// The Shooting phase: targets, hits, saves, casualties, drive backs, and
// their exact odds. The model is described in shooting.hpp.
#include "referee/warmaster/shooting/shooting.hpp"
#include "referee/warmaster/model/rule_ids.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "referee/core/chance.hpp"
#include "referee/core/errors.hpp"
#include "referee/warmaster/movement/contact.hpp"
#include "referee/warmaster/movement/sight.hpp"
#include "referee/warmaster/model/troops.hpp"
#include "movement/stand_pairs.hpp"

namespace referee::warmaster {

namespace {

constexpr const char* kRuleTarget = warmaster::rule_id::shooting_target;
constexpr const char* kRuleNoTarget = warmaster::rule_id::shooting_no_target;
constexpr const char* kRuleEngaged = warmaster::rule_id::shooting_engaged;
constexpr const char* kRuleHits = warmaster::rule_id::shooting_hits;
constexpr const char* kRuleCasualties = warmaster::rule_id::shooting_casualties;
constexpr const char* kRuleDriveBack = warmaster::rule_id::shooting_drive_back;
constexpr const char* kRuleRout = warmaster::rule_id::shooting_rout;
constexpr const char* kRuleBlocked = warmaster::rule_id::shooting_blocked;

std::string cm(double v) { return format_measure(v, "cm"); }

std::string weapon(Missile m) {
  std::string s = to_string(m);
  std::replace(s.begin(), s.end(), '_', ' ');
  return s;
}

std::string plural(int n, const char* one, const char* many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

double stand_hits(const Unit& u) { return u.hits > 0 ? u.hits : 1; }

// A unit driven off the table: a character that had joined it stays where it
// is, on its own (docs/rulings.md#warmaster-shooting-characters).
void remove_unit(Battlefield& bf, const std::string& id) {
  for (Character& c : bf.characters)
    if (c.joined_unit == id) c.joined_unit.clear();
  std::erase_if(bf.units, [&](const Unit& u) { return u.id == id; });
}

// A unit destroyed or routed: "characters are slain if their unit is
// destroyed ... by shooting" (docs/rulings.md#warmaster-shooting-characters).
void destroy_unit(ShootingResult& res, const std::string& id) {
  const std::vector<std::string> chars = remove_unit_and_characters(res.after, id);
  if (chars.empty()) return;
  res.slain.insert(res.slain.end(), chars.begin(), chars.end());
  res.rulings.push_back(characters_slain(chars, id));
}

}  // namespace



namespace {

// The stands of `u` that shoot at `e`: within `range` of it and seeing it
// (docs/rulings.md#warmaster-shooting-range-per-stand), or, with the setting
// range_per_stand off, every stand when the unit is within range and sees it.
std::vector<StandIndex> shooting_stands(const Battlefield& bf, const Unit& u, const StandRects& ru, const Unit& e,
                                        const StandRects& re, double unit_gap, double range,
                                        const Settings& settings) {
  std::vector<StandIndex> out;
  if (!settings.range_per_stand) {
    if (line_of_sight(bf, u, e, settings, true).visible) out = index_list<StandIndex>(u.stands);
    return out;
  }
  std::vector<StandIndex> in_range;
  if (u.stands.size() == 1) {
    if (unit_gap <= range + kMeasureSlack) in_range.push_back(StandIndex(0));
  } else {
    // A pair of stands whose circumscribed discs lie further apart than the
    // range is out of range: it is not measured (stand_pairs.hpp), which
    // changes no answer.
    const double limit = range + kMeasureSlack;
    const double bound = limit + stand_circumradius(u) + stand_circumradius(e) + kDiscSlack;
    for (std::size_t s = 0; s < u.stands.size(); ++s) {
      double d = std::numeric_limits<double>::infinity();
      for (std::size_t k = 0; k < e.stands.size() && d > limit; ++k)
        if (length_squared(u.stands[s].pose.position - e.stands[k].pose.position) <= bound * bound)
          d = std::min(d, distance(ru[s], re[k]));
      if (d <= limit) in_range.push_back(StandIndex(s));
    }
  }
  const std::vector<char> sees = stands_that_see(bf, u, e, settings, in_range);
  for (StandIndex s : in_range)
    if (sees[s.slot()]) out.push_back(s);
  return out;
}

std::string stand_list(const std::vector<StandIndex>& stands) {
  std::vector<int> numbers;
  for (StandIndex s : stands) numbers.push_back(s.value() + 1);
  return fmt::format("{} {}", stands.size() == 1 ? "stand" : "stands", fmt::join(numbers, ", "));
}

}  // namespace

namespace shooting_targets_parts {

// An enemy that may be shot, at its distance, with the stands that would shoot.
struct Found {
  const Unit* unit;
  double distance;
  std::vector<StandIndex> stands;
};

// The target shot at: the closest found, or the one the player chose
// (`choice`, if any) among those as close, with the ruling that says why.
void record_target(ShootingTarget& t, const Unit& u, const std::vector<Found>& found, const TargetChoice* choice,
                   double tol) {
  std::size_t pick = 0;
  if (found.size() > 1)
    for (std::size_t k = 0; k < found.size(); ++k) {
      t.choices.push_back(found[k].unit->id);
      if (choice && choice->target == found[k].unit->id) {
        pick = k;
        t.chosen = true;
      }
    }
  const Found& f = found[pick];
  t.target = f.unit->id;
  t.distance = f.distance;
  t.stands = f.stands;
  t.every_stand = t.stands.size() == u.stands.size();
  std::string reason =
      fmt::format("{} shoots at {}, the closest enemy unit it can see within its {}'s range of {}: {} away", u.id,
                  t.target, weapon(u.missile), cm(t.range), format_compared(t.distance, t.range, "cm").value);
  if (!t.every_stand)
    reason += fmt::format("; {} of its {} stands ({}) within range and in sight shoot", t.stands.size(),
                          u.stands.size(), stand_list(t.stands));
  if (found.size() > 1) {
    std::vector<std::string> others;
    for (const Found& o : found)
      if (o.unit != f.unit) others.push_back(fmt::format("{} at {:.2f} cm", o.unit->id, o.distance));
    reason += fmt::format("; {} {} as close (within the contact tolerance of {:g} cm), and the shooting player "
                          "chooses: {}",
                          fmt::join(others, " and "), others.size() == 1 ? "is" : "are", tol,
                          t.chosen ? fmt::format("{} chosen", t.target)
                                   : fmt::format("none chosen, so the closest, {}", t.target));
  }
  std::vector<Figure> figures{{"distance", t.distance, "cm"}, {"range", t.range, "cm"}};
  if (!t.every_stand) figures.push_back({"stands", static_cast<double>(t.stands.size()), ""});
  t.rulings.push_back({kRuleTarget, reason, std::move(figures)});
}

}  // namespace shooting_targets_parts

std::vector<ShootingTarget> shooting_targets(const Battlefield& bf, int side, const Settings& settings,
                                             const std::vector<TargetChoice>& choices) {
  std::vector<ShootingTarget> out;
  const double tol = settings.contact_tolerance;
  // Engaged is contact, worked out from the stands (contact.hpp).
  const std::vector<char> engaged = engaged_now(bf, tol);
  // A box about each unit's stands (never smaller than them; stand_pairs.hpp).
  std::vector<Aabb> boxes;
  boxes.reserve(bf.units.size());
  for (const Unit& u : bf.units) boxes.push_back(u.stands.empty() ? Aabb{{0, 0}, {0, 0}} : stands_box(u));
  // Each unit's footprints, worked out when first needed (a shooter's, a near enemy's).
  std::vector<std::optional<StandRects>> rects(bf.units.size());
  auto rects_of = [&](std::size_t i) -> const StandRects& {
    if (!rects[i]) rects[i].emplace(bf.units[i]);
    return *rects[i];
  };
  auto foes = [&](const Unit& u) { return fmt::format("{}", fmt::join(enemies_in_contact(bf, u, tol), ", ")); };
  for (std::size_t ui = 0; ui < bf.units.size(); ++ui) {
    const Unit& u = bf.units[ui];
    if (u.side != side || u.missile == Missile::None || u.stands.empty()) continue;
    ShootingTarget t;
    t.shooter = u.id;
    t.range = missile_range(u.missile);
    if (engaged[ui]) {
      t.rulings.push_back({kRuleEngaged,
                           fmt::format("{} is engaged in combat with {} and cannot shoot", u.id, foes(u)), {}});
      out.push_back(std::move(t));
      continue;
    }
    struct Near {
      double distance;
      std::size_t unit;
    };
    std::vector<Near> near;
    const Aabb reach = boxes[ui].inflated(t.range + kMeasureSlack);
    const StandRects& ru = rects_of(ui);
    for (std::size_t ei = 0; ei < bf.units.size(); ++ei) {
      const Unit& e = bf.units[ei];
      // Boxes apart by more than the range: the stands are too.
      if (e.side == side || e.stands.empty() || !reach.overlaps(boxes[ei])) continue;
      const double d = nearest_stands(u, ru, e, rects_of(ei)).points.distance;  // unit_distance
      if (d <= t.range + kMeasureSlack) near.push_back({d, ei});
    }
    std::stable_sort(near.begin(), near.end(), [](const Near& a, const Near& b) { return a.distance < b.distance; });
    const auto choice = std::find_if(choices.begin(), choices.end(), [&](const TargetChoice& c) { return c.shooter == u.id; });
    std::vector<shooting_targets_parts::Found> found;  // the closest that may be shot, and those as close
    const Near* unseen = nullptr;  // the closest in range but out of sight
    for (const Near& n : near) {
      if (!found.empty() && n.distance > found.front().distance + tol) break;
      const Unit& e = bf.units[n.unit];
      std::vector<StandIndex> stands = shooting_stands(bf, u, ru, e, rects_of(n.unit), n.distance, t.range, settings);
      if (stands.empty()) {
        if (!unseen) unseen = &n;
        continue;
      }
      if (engaged[n.unit] && !settings.shoot_into_combat) {
        t.passed_over.push_back(e.id);
        t.rulings.push_back({kRuleEngaged,
                             fmt::format("{} passes over {}, {} away: it is engaged in combat with {}, and units "
                                         "engaged in combat cannot be shot at",
                                         u.id, e.id, cm(n.distance), foes(e)),
                             {{"distance", n.distance, "cm"}}});
        continue;
      }
      found.push_back({&e, n.distance, std::move(stands)});
    }
    if (found.empty()) {
      t.rulings.push_back({kRuleNoTarget,
                           fmt::format("{} has no enemy unit in sight within its {}'s range of {}{}{}", u.id,
                                       weapon(u.missile), cm(t.range),
                                       t.passed_over.empty() ? "" : " that is not engaged in combat",
                                       unseen ? fmt::format(" ({} is {} away but out of sight)",
                                                            bf.units[unseen->unit].id, cm(unseen->distance))
                                              : std::string()),
                           {{"range", t.range, "cm"}}});
      out.push_back(std::move(t));
      continue;
    }
    shooting_targets_parts::record_target(t, u, found, choice != choices.end() ? &*choice : nullptr, tol);
    out.push_back(std::move(t));
  }
  return out;
}

Verdict check_target_choices(const std::vector<ShootingTarget>& targets, const std::vector<TargetChoice>& choices) {
  Verdict v;
  for (std::size_t k = 0; k < choices.size(); ++k) {
    const TargetChoice& c = choices[k];
    for (std::size_t j = 0; j < k; ++j)
      if (choices[j].shooter == c.shooter)
        v.add(kRuleTarget, fmt::format("target choice {}: {} is given a target twice", k + 1, c.shooter));
    const auto t = std::find_if(targets.begin(), targets.end(), [&](const ShootingTarget& x) { return x.shooter == c.shooter; });
    if (t == targets.end()) {
      v.add(kRuleTarget, fmt::format("target choice {}: {} is not a unit with a missile weapon on the side shooting",
                                     k + 1, c.shooter));
    } else if (t->choices.empty()) {
      v.add(kRuleTarget,
            t->target.empty()
                ? fmt::format("target choice {}: {} cannot shoot, so it has no target to choose", k + 1, c.shooter)
                : fmt::format("target choice {}: {} has no choice: it shoots at {}, the closest enemy unit, {} "
                              "away, and no other is as close",
                              k + 1, c.shooter, t->target, cm(t->distance)));
    } else if (std::find(t->choices.begin(), t->choices.end(), c.target) == t->choices.end()) {
      v.add(kRuleTarget, fmt::format("target choice {}: {} may choose between {}, equally close; not {}", k + 1,
                                     c.shooter, fmt::join(t->choices, " and "), c.target));
    }
  }
  return v;
}

std::vector<std::vector<TargetChoice>> target_choice_sets(const std::vector<ShootingTarget>& targets,
                                                          std::size_t cap) {
  std::vector<std::vector<TargetChoice>> sets{{}};
  for (const ShootingTarget& t : targets) {
    if (t.choices.size() < 2) continue;
    // Each set so far, with this shooter left at its closest or given each
    // other choice in turn.
    const std::size_t before = sets.size();
    for (std::size_t k = 0; k < before; ++k)
      for (std::size_t c = 1; c < t.choices.size(); ++c) {
        std::vector<TargetChoice> more = sets[k];
        more.push_back({t.shooter, t.choices[c]});
        sets.push_back(std::move(more));
      }
  }
  if (sets.size() <= cap) return sets;
  std::vector<std::vector<TargetChoice>> single{{}};
  for (const ShootingTarget& t : targets)
    for (std::size_t c = 1; c < t.choices.size(); ++c) single.push_back({{t.shooter, t.choices[c]}});
  return single;
}

namespace {

// The unsaved hits on one target, in the order first shot, and the closest
// unit that shot it: its casualties are removed furthest from that unit
// first, and it is driven back away from it.
struct TargetHits {
  std::string target;
  int unsaved = 0;
  std::string nearest_shooter;
  double nearest_distance = 0;
};

// 1. Targets: every unit that can shoot, at the target it had at the start of
//    the phase (docs/rulings.md#warmaster-shooting-targets), with the
//    player's choices between equally close enemies checked.
std::vector<ShootingTarget> choose_targets(const Battlefield& bf, int side, const Settings& settings,
                                           const std::vector<TargetChoice>& choices) {
  if (side != 0 && side != 1) throw InputError("side", "must be 0 or 1");
  std::vector<ShootingTarget> targets = shooting_targets(bf, side, settings, choices);
  if (!choices.empty()) {
    const Verdict v = check_target_choices(shooting_targets(bf, side, settings), choices);
    if (!v.legal()) throw InputError("targets", v.violations.front().reason);
  }
  return targets;
}

// 2. Hits: a die per Attack of every stand that shoots, hitting on 4+, 5+ or
//    6+ as the target is in the open, defended or fortified.
ShotRolls roll_hits(const Battlefield& bf, const ShootingTarget& t, const Settings& settings, Dice& dice) {
  const Unit& u = *bf.find_unit(t.shooter);
  const Unit& e = *bf.find_unit(t.target);
  ShotRolls s;
  s.shooter = u.id;
  s.target = e.id;
  s.stands = t.stands;
  s.every_stand = t.every_stand;
  s.position = position_of(bf, e, settings).position;
  s.needed = to_hit(s.position);
  s.armour = e.armour;
  const int n = u.attacks * static_cast<int>(t.stands.size());
  const std::string purpose = fmt::format("to hit: {} at {}", u.id, e.id);
  for (int k = 0; k < n; ++k) {
    const int r = dice.d6(purpose);
    s.to_hit.push_back(r);
    s.hits += r >= s.needed;
  }
  return s;
}

// 3. Saves: a die per hit on a target with an armour value, which saves it
//    on that value or more.
void roll_saves(ShotRolls& s, Dice& dice) {
  s.unsaved = s.hits;
  if (s.armour <= 0) return;
  const std::string purpose = "armour save: " + s.target;
  for (int k = 0; k < s.hits; ++k) {
    const int r = dice.d6(purpose);
    s.saves.push_back(r);
    s.unsaved -= r >= s.armour;
  }
}

Ruling hits_ruling(const Unit& u, const ShootingTarget& t, const ShotRolls& s) {
  const int n = static_cast<int>(s.to_hit.size());
  return {kRuleHits,
          fmt::format("{} rolls {} at {} ({}{}, hits on {}+): {}; {}", u.id, plural(n, "die", "dice"), s.target,
                      !t.every_stand ? fmt::format("{} of {} stands, ", stand_list(t.stands), u.stands.size())
                                     : std::string(),
                      to_string(s.position), s.needed, plural(s.hits, "hit", "hits"),
                      s.armour > 0 ? fmt::format("{} saved on {}+, {} unsaved", s.hits - s.unsaved, s.armour, s.unsaved)
                                   : fmt::format("no armour save, {} unsaved", s.unsaved)),
          {{"dice", static_cast<double>(n), ""},
           {"needed", static_cast<double>(s.needed), ""},
           {"hits", static_cast<double>(s.hits), ""},
           {"unsaved", static_cast<double>(s.unsaved), ""}}};
}

// The unsaved hits of one shot added to its target's.
void count_hits(std::vector<TargetHits>& hits, const ShootingTarget& t, const ShotRolls& s) {
  auto it = std::find_if(hits.begin(), hits.end(), [&](const TargetHits& h) { return h.target == s.target; });
  if (it == hits.end()) {
    hits.push_back({s.target, s.unsaved, s.shooter, t.distance});
    return;
  }
  it->unsaved += s.unsaved;
  if (t.distance < it->nearest_distance) {
    it->nearest_shooter = s.shooter;
    it->nearest_distance = t.distance;
  }
}

// 4. Casualties: a stand per full Hits value, the stands furthest from the
//    nearest shooter first (docs/rulings.md#warmaster-shooting-casualties);
//    odd hits are discounted at the end of the phase.
ShootingResult::Casualties remove_casualties(const Battlefield& bf, const TargetHits& h, ShootingResult& res) {
  Unit& e = *res.after.find_unit(h.target);
  ShootingResult::Casualties c;
  c.unit = h.target;
  c.unsaved = h.unsaved;
  const int per = static_cast<int>(stand_hits(e));
  c.stands_removed = std::min(static_cast<int>(e.stands.size()), c.unsaved / per);
  c.destroyed = c.stands_removed >= static_cast<int>(e.stands.size());
  c.discounted = c.destroyed ? 0 : c.unsaved - c.stands_removed * per;
  if (c.stands_removed > 0) {
    const Unit& shooter = *bf.find_unit(h.nearest_shooter);
    const StandRects re(e), rs(shooter);
    std::vector<std::pair<double, std::size_t>> far;
    for (std::size_t s = 0; s < e.stands.size(); ++s) {
      double d = 1e18;
      for (std::size_t k = 0; k < shooter.stands.size(); ++k) d = std::min(d, distance(re[s], rs[k]));
      far.push_back({-d, s});
    }
    std::stable_sort(far.begin(), far.end());
    std::vector<std::size_t> gone;
    for (int k = 0; k < c.stands_removed; ++k) gone.push_back(far[static_cast<std::size_t>(k)].second);
    std::sort(gone.rbegin(), gone.rend());
    for (std::size_t s : gone) e.stands.erase(e.stands.begin() + static_cast<std::ptrdiff_t>(s));
  }
  e.stands_lost += c.stands_removed;
  if (c.unsaved > 0)
    res.rulings.push_back(
        {kRuleCasualties,
         fmt::format("{} suffers {}: {} removed ({} per stand){}", c.unit, plural(c.unsaved, "unsaved hit", "unsaved hits"),
                     plural(c.stands_removed, "stand", "stands"), plural(per, "hit", "hits"),
                     c.destroyed ? ", the unit is destroyed"
                                 : c.discounted ? fmt::format(", {} discounted at the end of the phase",
                                                              plural(c.discounted, "odd hit", "odd hits"))
                                                : std::string()),
         {{"unsaved", static_cast<double>(c.unsaved), ""},
          {"stands_removed", static_cast<double>(c.stands_removed), ""},
          {"discounted", static_cast<double>(c.discounted), ""}}});
  if (c.destroyed) destroy_unit(res, c.unit);
  return c;
}

// 5a. The drive back's dice: one per unsaved hit, less one for a defended
//     target and two for a fortified one; a 6 confuses it.
DriveBack roll_drive_back(const ShootingResult::Casualties& c, const std::string& away_from, Position pos,
                          Dice& dice) {
  DriveBack db;
  db.unit = c.unit;
  db.away_from = away_from;
  db.hits = c.unsaved;
  db.dice = std::max(0, c.unsaved - (pos == Position::Defended ? 1 : pos == Position::Fortified ? 2 : 0));
  const std::string purpose = "drive back: " + c.unit;
  for (int k = 0; k < db.dice; ++k) {
    db.rolls.push_back(dice.d6(purpose));
    db.total += db.rolls.back();
  }
  db.confused = std::find(db.rolls.begin(), db.rolls.end(), 6) != db.rolls.end();
  return db;
}

// What the drive backs of one phase keep from one to the next: the working
// space of the move checks, and the index of the battlefield as the last
// drive back found it (the next one's is made from it: only the stands of the
// unit moved differ, and the terrain grid is shared).
struct DriveBackScratch {
  MoveScratch move;
  std::unique_ptr<MoveIndex> index;
  // The index of `bf` (the phase's battlefield as it is now).
  const MoveIndex& index_of(const Battlefield& bf) {
    index = index ? std::make_unique<MoveIndex>(bf, *index) : std::make_unique<MoveIndex>(bf);
    return *index;
  }
};

// 5b. The drive back's move: straight back the distance rolled; cut short
//     (and confused) where something blocks it; off the table, a roll on the
//     chart, and the unit gone from the table for the rest of the phase
//     (docs/rulings.md#warmaster-shooting-off-table).
void move_back(const Battlefield& bf, const Settings& settings, Dice& dice, DriveBack& db, ShootingResult& res,
               DriveBackScratch& work) {
  const Unit& e = *res.after.find_unit(db.unit);
  // Directly away from the nearest unit that shot it: from that unit's
  // closest point to the target's.
  const Vec2 dir = direction_between(*bf.find_unit(db.away_from), e);
  const MoveIndex& index = work.index_of(res.after);
  const StraightPush push = push_straight(res.after, index, e, dir, db.total, settings, work.move);
  const double go = push.moved;
  if (push.leaves_table) {
    db.left_table = true;
  } else if (push.blocked) {
    // Cut short: as far as it can go (to 0.01 cm), then confused.
    db.blocked = true;
    db.confused = true;
    res.rulings.push_back(
        {kRuleBlocked,
         fmt::format("{}'s drive back of {} is cut short after {}: {}; it stops there, confused", e.id,
                     cm(db.total), cm(go), push.why),
         {{"drive_back", static_cast<double>(db.total), "cm"}, {"moved", go, "cm"}}});
  }
  if (db.left_table) {
    db.left_at = e.stands;
    for (Stand& s : db.left_at) s.pose.position += dir * static_cast<double>(db.total);
    db.off_table = resolve_off_table(e, dice, false);
    res.rulings.push_back(db.off_table->ruling);
    // docs/rulings.md#warmaster-shooting-off-table: whatever the chart says, the unit is
    // off the table at the end of this phase; the game keeps track of its return.
    remove_unit(res.after, db.unit);
    db.moved = db.total;
  } else {
    const Vec2 shift = dir * go;
    Unit& moved = *res.after.find_unit(db.unit);
    for (Stand& s : moved.stands) s.pose.position += shift;
    for (Character& ch : res.after.characters)
      if (ch.joined_unit == moved.id) ch.pose.position += shift;
    db.moved = go;
  }
}

// 5. Drive backs, at the end of the phase: a unit driven back its full pace
//    or more is routed; otherwise it moves back (move_back).
DriveBack drive_back(const Battlefield& bf, const ShootingResult::Casualties& c, const std::string& away_from,
                     const Settings& settings, Dice& dice, ShootingResult& res, DriveBackScratch& work) {
  // Its position as its shots found it: position_of on the same battlefield,
  // worked out once (every unit driven back was shot).
  const auto shot =
      std::find_if(res.shots.begin(), res.shots.end(), [&](const ShotRolls& s) { return s.target == c.unit; });
  const Position pos =
      shot != res.shots.end() ? shot->position : position_of(bf, *bf.find_unit(c.unit), settings).position;
  DriveBack db = roll_drive_back(c, away_from, pos, dice);
  const double pace = full_pace(*res.after.find_unit(c.unit));
  const std::string dice_words =
      db.dice == 0 ? fmt::format("no dice ({} hits, {})", db.hits, to_string(pos))
                   : fmt::format("{} ({}): {} cm", plural(db.dice, "die", "dice"), fmt::join(db.rolls, "+"), db.total);
  if (db.dice > 0 && db.total >= pace) {
    db.routed = true;
    res.rulings.push_back({kRuleRout,
                           fmt::format("{} is driven back {}, its full pace of {} or more: routed and removed",
                                       c.unit, dice_words, cm(pace)),
                           {{"drive_back", static_cast<double>(db.total), "cm"}, {"pace", pace, "cm"}}});
    destroy_unit(res, c.unit);
    return db;
  }
  if (db.total > 0) move_back(bf, settings, dice, db, res, work);
  if (Unit* left = res.after.find_unit(db.unit); left && db.confused) left->confused = true;
  res.rulings.push_back(
      {kRuleDriveBack,
       fmt::format("{} is driven back {} away from {}{}{}", c.unit, dice_words, db.away_from,
                   db.blocked ? fmt::format(", moving only {}", cm(db.moved)) : std::string(),
                   db.confused ? (db.blocked && std::find(db.rolls.begin(), db.rolls.end(), 6) == db.rolls.end()
                                      ? ": confused (cut short)"
                                      : ": confused (a 6 was rolled)")
                               : std::string()),
       {{"dice", static_cast<double>(db.dice), ""},
        {"drive_back", static_cast<double>(db.total), "cm"},
        {"moved", db.moved, "cm"}}});
  return db;
}

}  // namespace

// The play sheet's steps in order: targets, hits, saves, casualties, drive backs.
ShootingResult resolve_shooting(const Battlefield& bf, int side, Dice& dice, const Settings& settings,
                                const std::vector<TargetChoice>& choices) {
  ShootingResult res;
  res.targets = choose_targets(bf, side, settings, choices);
  res.after = bf;
  for (const ShootingTarget& t : res.targets) res.rulings.insert(res.rulings.end(), t.rulings.begin(), t.rulings.end());
  std::vector<TargetHits> hits;
  for (const ShootingTarget& t : res.targets) {
    if (t.target.empty()) continue;
    ShotRolls s = roll_hits(bf, t, settings, dice);
    roll_saves(s, dice);
    res.rulings.push_back(hits_ruling(*bf.find_unit(t.shooter), t, s));
    count_hits(hits, t, s);
    res.shots.push_back(std::move(s));
  }
  for (const TargetHits& h : hits) res.casualties.push_back(remove_casualties(bf, h, res));
  DriveBackScratch work;
  for (std::size_t k = 0; k < hits.size(); ++k) {
    const ShootingResult::Casualties& c = res.casualties[k];
    if (c.destroyed || c.unsaved == 0) continue;
    res.drive_backs.push_back(drive_back(bf, c, hits[k].nearest_shooter, settings, dice, res, work));
  }
  return res;
}

// --- Odds ---------------------------------------------------------------------

ShootingOdds shooting_odds(const ShootingOddsRequest& r) {
  if (r.attacks < 0 || r.attacks > 60) throw InputError("attacks", "must be from 0 to 60 dice");
  if (r.armour < 0 || r.armour > 6) throw InputError("armour", "must be from 0 (no save) to 6");
  if (r.hits < 1 || r.hits > 20) throw InputError("hits", "must be from 1 to 20");
  if (r.stands < 1 || r.stands > 100) throw InputError("stands", "must be from 1 to 100");
  if (!(r.pace > 0 && r.pace <= 1000)) throw InputError("pace", "must be more than 0 and at most 1000 cm");
  ShootingOdds o;
  o.request = r;
  o.needed = to_hit(r.position);
  // Per attack, out of 36: hit (7 - needed of 6) and the save failed
  // (armour - 1 of 6), or no save at all (6 of 6).
  const std::int64_t a = (7 - o.needed) * (r.armour > 0 ? r.armour - 1 : 6);
  const double p = static_cast<double>(a) / 36.0;
  o.p_unsaved = p;
  const int n = r.attacks;
  const bool exact = n <= 12;  // 36^12 < 2^63
  std::int64_t total = 1;
  if (exact)
    for (int k = 0; k < n; ++k) total *= 36;
  const int reduction = r.position == Position::Defended ? 1 : r.position == Position::Fortified ? 2 : 0;
  double binom = 1;  // C(n, k)
  for (int k = 0; k <= n; ++k) {
    if (k > 0) binom = binom * (n - k + 1) / k;
    ShootingOddsRow row;
    row.unsaved = k;
    row.chance = binom * std::pow(p, k) * std::pow(1 - p, n - k);
    if (exact) {
      std::int64_t ways = static_cast<std::int64_t>(std::llround(binom));
      for (int i = 0; i < k; ++i) ways *= a;
      for (int i = 0; i < n - k; ++i) ways *= 36 - a;
      row.fraction = fmt::format("{}/{}", ways, total);
      row.chance = static_cast<double>(ways) / static_cast<double>(total);
    }
    row.stands_removed = std::min(r.stands, k / r.hits);
    const bool destroyed = row.stands_removed >= r.stands;
    row.drive_back_dice = destroyed ? 0 : std::max(0, k - reduction);
    const int d = row.drive_back_dice;
    row.confused = d > 0 ? 1 - std::pow(5.0 / 6.0, d) : 0;
    if (destroyed) {
      row.routed = 0;
    } else if (d > 0) {
      const int need = static_cast<int>(std::ceil(r.pace - 1e-9));
      std::int64_t ways = 0, all = 1;
      for (int i = 0; i < d && d <= 20; ++i) all *= 6;
      if (d <= 20) {
        for (int s = std::max(need, d); s <= 6 * d; ++s) ways += ways_to_sum(d, 6, s);
        row.routed = static_cast<double>(ways) / static_cast<double>(all);
      } else {
        row.routed = 1;  // 21 dice or more always make 21 cm; no pace in the game exceeds that
      }
    }
    row.mean_drive_back = 3.5 * d;
    o.mean_unsaved += k * row.chance;
    o.mean_stands_removed += row.stands_removed * row.chance;
    if (row.stands_removed > 0) o.any_stand_removed += row.chance;
    if (destroyed) o.destroyed += row.chance;
    o.confused += row.confused * row.chance;
    o.routed += row.routed * row.chance;
    o.rows.push_back(row);
  }
  return o;
}

// --- Answers -----------------------------------------------------------------

void to_json(nlohmann::json& j, const ShootingResult& r) {
  using nlohmann::json;
  json targets = json::array();
  for (const ShootingTarget& t : r.targets)
    targets.push_back({{"shooter", t.shooter},
                       {"target", t.target.empty() ? json(nullptr) : json(t.target)},
                       {"distance", t.distance},
                       {"range", t.range},
                       {"rule", t.rulings.back().rule},
                       {"reason", t.rulings.back().reason}});
  for (std::size_t k = 0; k < r.targets.size(); ++k) {
    const ShootingTarget& t = r.targets[k];
    // Which stands shoot, when not all of them do (absent: every stand).
    if (!t.target.empty() && !t.every_stand) targets[k]["stands"] = values_of(t.stands);
    if (!t.choices.empty()) {
      targets[k]["choices"] = t.choices;
      targets[k]["chosen"] = t.chosen;
    }
    if (!t.passed_over.empty()) targets[k]["passed_over"] = t.passed_over;
  }
  json shots = json::array();
  for (const ShotRolls& s : r.shots) {
    shots.push_back({{"shooter", s.shooter}, {"target", s.target}, {"position", to_string(s.position)},
                     {"needed", s.needed}, {"to_hit", s.to_hit}, {"hits", s.hits}, {"armour", s.armour},
                     {"saves", s.saves}, {"unsaved", s.unsaved}});
    if (!s.every_stand) shots.back()["stands"] = values_of(s.stands);
  }
  json cas = json::array();
  for (const auto& c : r.casualties)
    cas.push_back({{"unit", c.unit}, {"unsaved", c.unsaved}, {"stands_removed", c.stands_removed},
                   {"discounted", c.discounted}, {"destroyed", c.destroyed}});
  json dbs = json::array();
  for (const DriveBack& d : r.drive_backs) {
    json x{{"unit", d.unit}, {"away_from", d.away_from}, {"hits", d.hits}, {"dice", d.dice}, {"rolls", d.rolls},
           {"total", d.total}, {"moved", std::round(d.moved * 1000) / 1000}, {"confused", d.confused},
           {"routed", d.routed}, {"blocked", d.blocked}, {"left_table", d.left_table}};
    if (d.off_table) x["off_table"] = {{"roll", d.off_table->roll}, {"modified", d.off_table->modified},
                                       {"reason", d.off_table->ruling.reason}};
    dbs.push_back(x);
  }
  json rulings = json::array();
  for (const Ruling& x : r.rulings) rulings.push_back(x);
  j = {{"targets", targets}, {"shots", shots}, {"casualties", cas}, {"drive_backs", dbs}, {"rulings", rulings}};
  if (!r.slain.empty()) j["slain"] = r.slain;
}

void to_json(nlohmann::json& j, const ShootingOdds& o) {
  using nlohmann::json;
  json rows = json::array();
  for (const ShootingOddsRow& r : o.rows) {
    json x{{"unsaved", r.unsaved},
           {"chance", r.chance},
           {"stands_removed", r.stands_removed},
           {"drive_back_dice", r.drive_back_dice},
           {"confused", r.confused},
           {"routed", r.routed},
           {"mean_drive_back", r.mean_drive_back}};
    if (!r.fraction.empty()) x["fraction"] = r.fraction;
    rows.push_back(x);
  }
  j = {{"rule", kRuleHits},
       {"attacks", o.request.attacks},
       {"position", to_string(o.request.position)},
       {"needed", o.needed},
       {"armour", o.request.armour},
       {"hits_per_stand", o.request.hits},
       {"stands", o.request.stands},
       {"pace", o.request.pace},
       {"p_unsaved_per_attack", o.p_unsaved},
       {"rows", rows},
       {"mean_unsaved", o.mean_unsaved},
       {"mean_stands_removed", o.mean_stands_removed},
       {"any_stand_removed", o.any_stand_removed},
       {"destroyed", o.destroyed},
       {"confused", o.confused},
       {"routed", o.routed}};
}

std::string explain(const ShootingResult& r) {
  std::string s;
  for (const Ruling& x : r.rulings) s += fmt::format("{}: {}\n", x.rule, x.reason);
  if (r.rulings.empty()) s = "No unit of this side can shoot.\n";
  return s;
}

std::string explain(const ShootingOdds& o) {
  const ShootingOddsRequest& q = o.request;
  std::string s = fmt::format(
      "{} at a target {} (hits on {}+), armour {}, {} per stand, {}, pace {}: each die is an unsaved hit with "
      "chance {:.4f}.\n",
      plural(q.attacks, "die", "dice"),
      q.position == Position::Open ? "in the open" : fmt::format("in a {} position", to_string(q.position)), o.needed,
      q.armour > 0 ? fmt::format("{}+", q.armour) : std::string("none"), plural(q.hits, "hit", "hits"),
      plural(q.stands, "stand", "stands"), cm(q.pace), o.p_unsaved);
  s += "  unsaved  chance               stands lost  drive-back dice  confused  routed\n";
  for (const ShootingOddsRow& r : o.rows)
    s += fmt::format("  {:>7}  {:>8.4f} {:>11}  {:>11}  {:>15}  {:>8.4f}  {:>6.4f}\n", r.unsaved, r.chance,
                     r.fraction.size() <= 11 ? r.fraction : std::string(), r.stands_removed, r.drive_back_dice,
                     r.confused, r.routed);
  s += fmt::format(
      "Mean unsaved hits {:.3f}; at least one stand lost {:.4f}; destroyed {:.4f}; confused {:.4f}; routed {:.4f}.\n",
      o.mean_unsaved, o.any_stand_removed, o.destroyed, o.confused, o.routed);
  return s;
}

}  // namespace referee::warmaster
