#include "referee/ancients/orders.hpp"
#include "referee/ancients/rule_ids.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "referee/core/ruling.hpp"

namespace referee::ancients {

namespace {

const CardDef& card_of(const Battle& b, int card) { return b.cards[static_cast<std::size_t>(card)]; }
std::uint8_t section_bits(const Battle& b, int hex) { return b.board.section_mask(hex); }

std::string item_id(const Battle& b, const OrderItem& it) {
  return it.leader ? b.leaders[static_cast<std::size_t>(it.index)].id : b.units[static_cast<std::size_t>(it.index)].id;
}
int item_hex(const Position& p, const OrderItem& it) {
  return it.leader ? p.leaders[static_cast<std::size_t>(it.index)].hex : p.units[static_cast<std::size_t>(it.index)].hex;
}

// Section quotas as a small assignment problem: each order takes one unit of
// quota from one of the sections its hex belongs to (a dotted-line hex may be
// ordered from either). Depth-first with at most a dozen orders and three
// sections, so plain backtracking is enough.
bool assign(const std::vector<std::uint8_t>& masks, std::size_t i, std::array<int, kSections>& left) {
  if (i == masks.size()) return true;
  for (int s = 0; s < kSections; ++s) {
    if (!((masks[i] >> s) & 1) || left[static_cast<std::size_t>(s)] == 0) continue;
    --left[static_cast<std::size_t>(s)];
    bool ok = assign(masks, i + 1, left);
    ++left[static_cast<std::size_t>(s)];
    if (ok) return true;
  }
  return false;
}

// Friendly units linked to the leader's hex through a chain of adjacent
// friendly units (the Leadership card's "adjacent linked" hexes).
std::vector<int> linked_units(const Battle& b, const Position& p, int side, int from_hex) {
  std::vector<int> out;
  std::vector<int> queue{from_hex};
  std::vector<char> seen(static_cast<std::size_t>(b.board.cell_count()), 0);
  seen[static_cast<std::size_t>(from_hex)] = 1;
  for (std::size_t i = 0; i < queue.size(); ++i) {
    for (int dir = 0; dir < 6; ++dir) {
      int n = b.board.neighbour(queue[i], dir);
      if (n < 0 || seen[static_cast<std::size_t>(n)]) continue;
      seen[static_cast<std::size_t>(n)] = 1;
      int u = p.unit_on(n);
      if (u < 0 || b.units[static_cast<std::size_t>(u)].side != side) continue;
      out.push_back(u);
      queue.push_back(n);
    }
  }
  return out;
}

}  // namespace

OrderPlan plan_orders(const Battle& b, const Position& p, int side, int card, int command) {
  const CardDef& c = card_of(b, card);
  OrderPlan plan;
  plan.card = card;
  plan.side = side;
  plan.command = command;
  plan.move.light_pass_through = c.light_pass_through;
  const int fixed = c.count_is_command ? command : c.count;
  auto friendly_units = [&](auto pred) {
    std::vector<int> out;
    for (std::size_t u = 0; u < b.units.size(); ++u)
      if (b.units[u].side == side && p.units[u].hex >= 0 && pred(static_cast<int>(u))) out.push_back(static_cast<int>(u));
    return out;
  };
  auto friendly_leaders = [&](auto pred) {
    std::vector<int> out;
    for (std::size_t l = 0; l < b.leaders.size(); ++l)
      if (b.leaders[l].side == side && p.leaders[l].hex >= 0 && pred(static_cast<int>(l))) out.push_back(static_cast<int>(l));
    return out;
  };
  auto attached = [&](int l) { return p.leaders[static_cast<std::size_t>(l)].attached >= 0; };
  auto use_fallback = [&](const std::string& why) {
    plan.fallback = true;
    plan.total = 1;
    plan.units = friendly_units([](int) { return true; });
    plan.leaders.clear();
    plan.reason = why + ": one unit of the player's choice instead";
  };

  switch (c.kind) {
    case CardKind::section: {
      std::uint8_t wanted = 0;
      std::vector<std::string> parts;
      for (int s = 0; s < kSections; ++s) {
        int q = c.quota[static_cast<std::size_t>(s)];
        if (q == 0) continue;
        int bs = board_section(side, s);
        plan.quota[static_cast<std::size_t>(bs)] = q;
        plan.total += q;
        wanted |= static_cast<std::uint8_t>(1u << bs);
        parts.push_back(fmt::format("{} in the {}", q, section_name(s)));
      }
      auto in_sections = [&](int hex) { return (section_bits(b, hex) & wanted) != 0; };
      plan.units = friendly_units([&](int u) { return in_sections(p.units[static_cast<std::size_t>(u)].hex); });
      plan.leaders = friendly_leaders([&](int l) {
        return in_sections(p.leaders[static_cast<std::size_t>(l)].hex) && (attached(l) ? c.detach : c.lone_leaders);
      });
      plan.rule = ancients::rule_id::card_section;
      std::string joined;
      for (std::size_t i = 0; i < parts.size(); ++i) joined += (i ? ", " : "") + parts[i];
      plan.reason = fmt::format("{} orders {} unit{} or leader{}: {}", c.name, plan.total, plan.total == 1 ? "" : "s",
                                plan.total == 1 ? "" : "s", joined);
      break;
    }
    case CardKind::troop: {
      plan.total = fixed;
      plan.units = friendly_units([&](int u) { return in_mask(c.troops, b.units[static_cast<std::size_t>(u)].cls); });
      plan.leaders = friendly_leaders([&](int l) { return attached(l) ? c.detach : c.lone_leaders; });
      plan.rule = ancients::rule_id::card_troop;
      plan.reason = c.count_is_command
                        ? fmt::format("{} orders as many units as the player's command: {} (cards held, counting this one)",
                                      c.name, command)
                        : fmt::format("{} orders {}", c.name, count_of(fixed, "unit", "units"));
      if (plan.units.empty() && c.fallback_one_unit) use_fallback(fmt::format("no unit {} orders", c.name));
      break;
    }
    case CardKind::leadership: {
      plan.leaders = friendly_leaders([](int) { return true; });
      for (int l : plan.leaders) {
        const LeaderState& ls = p.leaders[static_cast<std::size_t>(l)];
        if (ls.attached >= 0) plan.units.push_back(ls.attached);
        for (int u : linked_units(b, p, side, ls.hex)) plan.units.push_back(u);
      }
      std::sort(plan.units.begin(), plan.units.end());
      plan.units.erase(std::unique(plan.units.begin(), plan.units.end()), plan.units.end());
      plan.total = 1 + 1 + c.linked;
      plan.rule = ancients::rule_id::card_leadership;
      plan.reason = fmt::format(
          "{} orders one leader, the unit he is attached to, and up to {} in a chain of adjacent hexes linked to "
          "him; no leader may detach",
          c.name, count_of(c.linked, "unit", "units"));
      if (plan.leaders.empty() && c.fallback_one_unit) use_fallback("no leader to order through");
      break;
    }
    case CardKind::spartacus: {
      plan.total = fixed;
      plan.leaders = friendly_leaders([](int) { return true; });
      plan.units = friendly_units([&](int u) { return p.leader_of(u) >= 0; });
      plan.rule = ancients::rule_id::card_spartacus;
      plan.reason = fmt::format("{} orders {} leaders or units with attached leaders (the player's command); leaders may "
                                "detach",
                                c.name, fixed);
      break;
    }
  }
  if (!c.not_applied.empty()) plan.reason += "; not applied here: " + c.not_applied;
  return plan;
}

Verdict check_orders(const Battle& b, const Position& p, const OrderPlan& plan, const std::vector<OrderItem>& chosen) {
  Verdict v;
  const CardDef& c = card_of(b, plan.card);
  // Each piece once, each on the player's side, each eligible under the card.
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    const OrderItem& it = chosen[i];
    const std::string id = item_id(b, it);
    for (std::size_t k = 0; k < i; ++k)
      if (chosen[k] == it) v.add(ancients::rule_id::order_once, fmt::format("{} is ordered twice; a piece takes one order a turn", id));
    int side = it.leader ? b.leaders[static_cast<std::size_t>(it.index)].side : b.units[static_cast<std::size_t>(it.index)].side;
    if (side != plan.side) {
      v.add(ancients::rule_id::order_side, fmt::format("{} belongs to {}, not {}", id, b.army(side), b.army(plan.side)));
      continue;
    }
    if (it.leader) {
      bool attached = p.leaders[static_cast<std::size_t>(it.index)].attached >= 0;
      bool ok = std::find(plan.leaders.begin(), plan.leaders.end(), it.index) != plan.leaders.end();
      if (attached && !c.detach && c.kind != CardKind::leadership)
        v.add(ancients::rule_id::leader_detach_card,
              fmt::format("leader {} is attached, and {} has no helmet: leaders detach only under section cards, Order "
                          "Mounted Troops and I am Spartacus",
                          id, c.name));
      else if (!ok)
        v.add(ancients::rule_id::card_eligible, fmt::format("{} may not order leader {}", c.name, id));
    } else if (std::find(plan.units.begin(), plan.units.end(), it.index) == plan.units.end()) {
      std::string why = c.kind == CardKind::section ? "it is not in a section the card orders"
                        : c.kind == CardKind::troop ? "it is not one of the troops the card orders"
                                                    : "it is not linked to a leader the card orders through";
      v.add(ancients::rule_id::card_eligible, fmt::format("{} may not order unit {}: {}", c.name, id, why));
    }
  }
  if (!v.legal()) return v;

  int n = static_cast<int>(chosen.size());
  if (c.kind == CardKind::leadership && !plan.fallback) {
    // One leader; his own unit comes with him; the rest form a linked chain.
    std::vector<int> leaders;
    for (const OrderItem& it : chosen)
      if (it.leader) leaders.push_back(it.index);
    if (leaders.size() != 1 && n > 0) {
      v.add(ancients::rule_id::card_leadership,
            fmt::format("{} orders through exactly one leader; {} chosen", c.name, leaders.size()),
            {{"leaders", static_cast<double>(leaders.size()), ""}});
      return v;
    }
    if (n == 0) return v;
    const LeaderState& ls = p.leaders[static_cast<std::size_t>(leaders[0])];
    std::vector<int> chain_hexes{ls.hex};
    std::vector<int> others;
    for (const OrderItem& it : chosen)
      if (!it.leader && it.index != ls.attached) others.push_back(it.index);
    if (static_cast<int>(others.size()) > c.linked)
      v.add(ancients::rule_id::card_count,
            fmt::format("{} orders at most {} besides the leader's own; {} chosen", c.name,
                        count_of(c.linked, "linked unit", "linked units"), others.size()),
            {{"ordered", static_cast<double>(others.size()), ""}, {"allowed", static_cast<double>(c.linked), ""}});
    // Grow the chain from the leader's hex through ordered units only.
    std::vector<char> in_chain(others.size(), 0);
    for (bool grew = true; grew;) {
      grew = false;
      for (std::size_t i = 0; i < others.size(); ++i) {
        if (in_chain[i]) continue;
        int h = p.units[static_cast<std::size_t>(others[i])].hex;
        for (int ch : chain_hexes)
          if (b.board.adjacent(h, ch)) {
            in_chain[i] = 1;
            chain_hexes.push_back(h);
            grew = true;
            break;
          }
      }
    }
    for (std::size_t i = 0; i < others.size(); ++i)
      if (!in_chain[i])
        v.add(ancients::rule_id::card_leadership,
              fmt::format("unit {} is not linked to leader {} through adjacent ordered units",
                          b.units[static_cast<std::size_t>(others[i])].id, b.leaders[static_cast<std::size_t>(leaders[0])].id));
    return v;
  }

  if (n > plan.total)
    v.add(plan.rule.empty() ? ancients::rule_id::card_count : ancients::rule_id::card_count,
          fmt::format("{} gives {} order{}; {} chosen", c.name, plan.total, plan.total == 1 ? "" : "s", n),
          {{"ordered", static_cast<double>(n), ""}, {"allowed", static_cast<double>(plan.total), ""}});
  if (c.kind == CardKind::section && v.legal()) {
    std::vector<std::uint8_t> masks;
    for (const OrderItem& it : chosen) masks.push_back(section_bits(b, item_hex(p, it)));
    std::array<int, kSections> left = plan.quota;
    if (!assign(masks, 0, left))
      v.add(ancients::rule_id::card_section,
            fmt::format("the {} orders cannot be shared among the card's sections ({} left, {} center, {} right from "
                        "side 0's seat)",
                        n, plan.quota[0], plan.quota[1], plan.quota[2]));
  }
  return v;
}

PlanPieces plan_pieces(const Position& p, const OrderPlan& plan) {
  PlanPieces out;
  for (int u : plan.units) out.units.push_back({p.units[static_cast<std::size_t>(u)].hex, p.leader_of(u)});
  for (int l : plan.leaders) {
    const LeaderState& ls = p.leaders[static_cast<std::size_t>(l)];
    out.leaders.push_back({ls.hex, ls.attached});
  }
  return out;
}

nlohmann::json plan_json(const Battle& b, const Position& p, const OrderPlan& plan) {
  return plan_json(b, plan, plan_pieces(p, plan));
}

nlohmann::json plan_json(const Battle& b, const OrderPlan& plan, const PlanPieces& pieces) {
  const CardDef& c = card_of(b, plan.card);
  nlohmann::json units = nlohmann::json::array(), leaders = nlohmann::json::array();
  for (std::size_t i = 0; i < plan.units.size(); ++i) {
    const int u = plan.units[i];
    const PlannedUnit& pu = pieces.units[i];
    const UnitSpec& s = b.units[static_cast<std::size_t>(u)];
    nlohmann::json sections = nlohmann::json::array();
    std::uint8_t m = b.board.section_mask(pu.hex);
    for (int seat = 0; seat < kSections; ++seat)
      if ((m >> board_section(plan.side, seat)) & 1) sections.push_back(section_name(seat));
    nlohmann::json j{{"id", s.id}, {"class", b.unit_class(u).id}, {"hex", hex_json(b.board, pu.hex)}, {"sections", sections}};
    if (pu.leader >= 0) j["attached_leader"] = b.leaders[static_cast<std::size_t>(pu.leader)].id;
    units.push_back(j);
  }
  for (std::size_t i = 0; i < plan.leaders.size(); ++i) {
    const PlannedLeader& pl = pieces.leaders[i];
    nlohmann::json j{{"id", b.leaders[static_cast<std::size_t>(plan.leaders[i])].id}, {"hex", hex_json(b.board, pl.hex)},
                     {"detaches", pl.attached >= 0}};
    if (pl.attached >= 0) j["from_unit"] = b.units[static_cast<std::size_t>(pl.attached)].id;
    leaders.push_back(j);
  }
  nlohmann::json quota = nlohmann::json::object();
  if (c.kind == CardKind::section)
    for (int seat = 0; seat < kSections; ++seat) {
      int q = plan.quota[static_cast<std::size_t>(board_section(plan.side, seat))];
      if (q) quota[section_name(seat)] = q;
    }
  nlohmann::json j{{"card", c.id}, {"name", c.name}, {"side", plan.side}, {"command", plan.command},
                   {"orders", plan.total}, {"rule", plan.rule}, {"reason", plan.reason},
                   {"fallback_one_unit", plan.fallback}, {"light_foot_pass_through", plan.move.light_pass_through},
                   {"detach_allowed", c.detach}, {"units", units}, {"leaders", leaders}};
  if (!quota.empty()) j["sections"] = quota;
  if (c.kind == CardKind::leadership) j["linked_units"] = c.linked;
  if (!c.not_applied.empty()) j["not_applied"] = c.not_applied;
  return j;
}

std::string plan_text(const Battle& b, const Position& p, const OrderPlan& plan) {
  std::string out = plan.reason + "\n";
  out += fmt::format("orders: {}\n", plan.total);
  for (int u : plan.units)
    out += fmt::format("  unit {} ({}) at {}\n", b.units[static_cast<std::size_t>(u)].id, b.unit_class(u).name,
                       format_hex(b.board.col_row(p.units[static_cast<std::size_t>(u)].hex)));
  for (int l : plan.leaders)
    out += fmt::format("  leader {} at {}{}\n", b.leaders[static_cast<std::size_t>(l)].id,
                       format_hex(b.board.col_row(p.leaders[static_cast<std::size_t>(l)].hex)),
                       p.leaders[static_cast<std::size_t>(l)].attached >= 0 ? " (detaches, one order)" : "");
  return out;
}

}  // namespace referee::ancients
