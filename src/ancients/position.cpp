#include "referee/ancients/position.hpp"

namespace referee::ancients {

Position Position::initial(const Battle& battle) {
  Position p;
  std::size_t cells = static_cast<std::size_t>(battle.board.cell_count());
  p.unit_at.assign(cells, -1);
  p.leader_at.assign(cells, -1);
  for (std::size_t i = 0; i < battle.units.size(); ++i) {
    UnitState s;
    s.hex = battle.units[i].hex;
    s.blocks = battle.units[i].blocks;
    p.units.push_back(s);
    p.unit_at[static_cast<std::size_t>(s.hex)] = static_cast<std::int16_t>(i);
  }
  for (std::size_t i = 0; i < battle.leaders.size(); ++i) {
    LeaderState s;
    s.hex = battle.leaders[i].hex;
    p.leaders.push_back(s);
    p.leader_at[static_cast<std::size_t>(s.hex)] = static_cast<std::int16_t>(i);
  }
  p.start_turn(battle);
  return p;
}

int Position::leader_of(int unit) const {
  if (units[static_cast<std::size_t>(unit)].hex < 0) return -1;
  int l = leader_on(units[static_cast<std::size_t>(unit)].hex);
  return l >= 0 && leaders[static_cast<std::size_t>(l)].attached == unit ? l : -1;
}

void Position::place_unit(int unit, int hex) {
  UnitState& u = units[static_cast<std::size_t>(unit)];
  if (u.hex >= 0 && unit_at[static_cast<std::size_t>(u.hex)] == unit) unit_at[static_cast<std::size_t>(u.hex)] = -1;
  u.hex = hex;
  unit_at[static_cast<std::size_t>(hex)] = static_cast<std::int16_t>(unit);
}

void Position::place_leader(int leader, int hex) {
  LeaderState& l = leaders[static_cast<std::size_t>(leader)];
  if (l.hex >= 0 && leader_at[static_cast<std::size_t>(l.hex)] == leader) leader_at[static_cast<std::size_t>(l.hex)] = -1;
  l.hex = hex;
  leader_at[static_cast<std::size_t>(hex)] = static_cast<std::int16_t>(leader);
}

void Position::remove_unit(int unit) {
  UnitState& u = units[static_cast<std::size_t>(unit)];
  if (u.hex >= 0 && unit_at[static_cast<std::size_t>(u.hex)] == unit) unit_at[static_cast<std::size_t>(u.hex)] = -1;
  u.hex = kNoHex;
  u.blocks = 0;
}

void Position::remove_leader(int leader) {
  LeaderState& l = leaders[static_cast<std::size_t>(leader)];
  if (l.hex >= 0 && leader_at[static_cast<std::size_t>(l.hex)] == leader) leader_at[static_cast<std::size_t>(l.hex)] = -1;
  l.hex = kNoHex;
  l.attached = -1;
}

void Position::start_turn(const Battle& battle) {
  for (UnitState& u : units) u = UnitState{u.hex, u.blocks};
  for (std::size_t i = 0; i < leaders.size(); ++i) {
    LeaderState& l = leaders[i];
    l.ordered = l.moved = false;
    if (l.hex < 0) continue;
    int u = unit_on(l.hex);
    l.attached = u >= 0 && battle.units[static_cast<std::size_t>(u)].side == battle.leaders[i].side ? u : -1;
  }
}

}  // namespace referee::ancients
