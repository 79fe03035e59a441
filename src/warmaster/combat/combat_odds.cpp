// The exact odds of one exchange of attacks (combat.hpp, combat_odds): each
// side's unsaved hits as a binomial over its dice, and the result they give.
#include "combat/combat_phase.hpp"

namespace referee::warmaster {

namespace {

struct Binomial {
  std::int64_t a = 0;  // per die, out of 36: an unsaved hit
  std::vector<double> p;
  std::vector<std::int64_t> ways;  // over 36^n, when exact
};

Binomial binomial(int n, int needed, int armour, bool exact) {
  Binomial b;
  b.a = (7 - needed) * (armour > 0 ? armour - 1 : 6);
  const double q = static_cast<double>(b.a) / 36.0;
  double c = 1;
  for (int k = 0; k <= n; ++k) {
    if (k > 0) c = c * (n - k + 1) / k;
    b.p.push_back(c * std::pow(q, k) * std::pow(1 - q, n - k));
    if (exact) {
      std::int64_t w = static_cast<std::int64_t>(std::llround(c));
      for (int i = 0; i < k; ++i) w *= b.a;
      for (int i = 0; i < n - k; ++i) w *= 36 - b.a;
      b.ways.push_back(w);
    }
  }
  return b;
}

std::int64_t pow36(int n) {
  std::int64_t t = 1;
  for (int k = 0; k < n; ++k) t *= 36;
  return t;
}

}  // namespace

CombatOdds combat_odds(const CombatOddsRequest& r) {
  for (const auto& [side, name] : {std::pair{&r.a, "a"}, std::pair{&r.b, "b"}}) {
    if (side->dice < 0 || side->dice > 60) throw InputError(fmt::format("{}.dice", name), "must be from 0 to 60");
    if (side->armour < 0 || side->armour > 6)
      throw InputError(fmt::format("{}.armour", name), "must be from 0 (no save) to 6");
    if (side->support < 0 || side->support > 100) throw InputError(fmt::format("{}.support", name), "must be from 0 to 100");
  }
  CombatOdds o;
  o.request = r;
  const bool exact = r.a.dice + r.b.dice <= 12;  // 36^12 < 2^63
  // a rolls against b's position and armour, and b against a's.
  o.needed = {to_hit(r.b.position), to_hit(r.a.position)};
  const Binomial ba = binomial(r.a.dice, o.needed[0], r.b.armour, exact);
  const Binomial bb = binomial(r.b.dice, o.needed[1], r.a.armour, exact);
  o.p_unsaved = {static_cast<double>(ba.a) / 36, static_cast<double>(bb.a) / 36};
  for (int s = 0; s < 2; ++s) {
    const Binomial& b = s == 0 ? ba : bb;
    const int n = s == 0 ? r.a.dice : r.b.dice;
    for (std::size_t k = 0; k < b.p.size(); ++k) {
      CombatOddsRow row;
      row.hits = static_cast<int>(k);
      row.chance = b.p[k];
      if (exact) {
        row.fraction = fmt::format("{}/{}", b.ways[k], pow36(n));
        row.chance = static_cast<double>(b.ways[k]) / static_cast<double>(pow36(n));
      }
      o.rows[static_cast<std::size_t>(s)].push_back(row);
    }
  }
  std::map<int, std::pair<double, std::int64_t>> diff;
  for (std::size_t i = 0; i < ba.p.size(); ++i)
    for (std::size_t k = 0; k < bb.p.size(); ++k) {
      const int d = static_cast<int>(i) + r.a.support - static_cast<int>(k) - r.b.support;
      auto& cell = diff[d];
      cell.first += ba.p[i] * bb.p[k];
      if (exact) cell.second += ba.ways[i] * bb.ways[k];
    }
  const std::int64_t all = exact ? pow36(r.a.dice + r.b.dice) : 0;
  std::int64_t wa = 0, wd = 0, wb = 0;
  for (const auto& [d, cell] : diff) {
    CombatOddsDifference x;
    x.difference = d;
    x.chance = exact ? static_cast<double>(cell.second) / static_cast<double>(all) : cell.first;
    if (exact) x.fraction = fmt::format("{}/{}", cell.second, all);
    (d > 0 ? o.a_wins : d < 0 ? o.b_wins : o.draw) += x.chance;
    (d > 0 ? wa : d < 0 ? wb : wd) += cell.second;
    o.mean_difference += d * x.chance;
    o.differences.push_back(x);
  }
  if (exact) {
    o.a_wins_fraction = fmt::format("{}/{}", wa, all);
    o.draw_fraction = fmt::format("{}/{}", wd, all);
    o.b_wins_fraction = fmt::format("{}/{}", wb, all);
    o.a_wins = static_cast<double>(wa) / static_cast<double>(all);
    o.draw = static_cast<double>(wd) / static_cast<double>(all);
    o.b_wins = static_cast<double>(wb) / static_cast<double>(all);
  }
  return o;
}

}  // namespace referee::warmaster
