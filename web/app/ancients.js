// The Commands & Colors: Ancients board: hexes in the board's printed
// columns and rows (odd rows set half a hex right, row 0 at the top), the
// section lines, units and leaders. Play a card from the hand: the units it
// can order light up (the `orders` query). Click a unit to see its
// destinations (the `destinations` query) marked "can battle", "no battle"
// or "must battle", and click one to move there. In the battle phase the
// units that may battle are lit: select one and its targets are ringed on
// the board, pointing at (or focusing) a target shows the engine's odds (the
// `targets` query), clicking it (or Enter) rolls; a retreat or an evasion
// with a choice rings its hexes, and clicking one picks it. Every piece and
// mark that acts is a button to the keyboard (Tab, then Enter or Space).
// A newcomer reads words: each class badge on a piece is named in full in
// the key under the board, leaders are tagged with their names (lit when the
// card may order them), cards go by their names, and every action, log line
// and result names pieces and sides as the player knows them.
import { el, fill, mayPlay, registerBoard, turnKey } from './shell.js';

const NS = 'http://www.w3.org/2000/svg';
const SIDE_COLOURS = ['#c0392b', '#2e6db4'];
const TERRAIN = { forest: '#8fbf7a', hill: '#d8c690', river: '#8cbfe6', ford: '#b5d8f0', clear: '#f7f3e8' };
const ui = { gameId: null, card: null, plan: null, selected: [], dest: null, attacker: null, targets: null, odds: null, focus: null };

function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

const S3 = Math.sqrt(3);
const centre = ([col, row]) => [col + 0.5 * (row & 1) + 0.5, row * S3 / 2 + 0.6];
function hexPoints([x, y], scale = 1) {
  const r = scale / S3;
  return Array.from({ length: 6 }, (_, k) => {
    const a = (Math.PI / 180) * (60 * k + 30);
    return `${(x + r * Math.cos(a)).toFixed(3)},${(y + r * Math.sin(a)).toFixed(3)}`;
  }).join(' ');
}

export function filterActions(actions) { return actions; }

// The engine's badge of each unit class (src/ancients/unit_classes.cpp, as
// `referee ancients render` marks them): one code per class. The initials
// the board used before gave light cavalry and light chariot both "LC", and
// heavy cavalry and heavy chariot both "HC". The key names each in full.
const BADGES = {
  light_infantry: 'LI', light_sling_infantry: 'LS', light_bow_infantry: 'LB', auxilia: 'AX', light_war_machine: 'LWM',
  medium_infantry: 'MI', warrior: 'WI', heavy_infantry: 'HI', heavy_war_machine: 'HWM', light_cavalry: 'LC',
  light_bow_cavalry: 'LBC', light_chariot: 'LCH', medium_cavalry: 'MC', camel: 'CAM', heavy_cavalry: 'HC', elephant: 'EL',
  heavy_chariot: 'HCH',
};
function classLabel(c) { return BADGES[c] ?? c.split('_').map((w) => w[0].toUpperCase()).join(''); }
// An engine id in words: "heavy_infantry" is "heavy infantry".
const idWords = (id) => String(id ?? '').replaceAll('_', ' ');
const hexesWords = (n) => `${n} hex${n === 1 ? '' : 'es'}`;

// The pieces as a player names them: a unit by its id (the label on its
// tile) and its class, a leader by his name (the battle's, else his id).
const leaderOf = (id, ctx) => (ctx?.game?.state?.leaders ?? []).find((l) => l.id === id);
// A leader the battle gives no name is called by his id, capitalised when
// it is one word ("laelius" is Laelius).
export function leaderName(id, ctx) {
  const name = (ctx?.game?.scenario?.leaders ?? []).find((l) => l.id === id)?.name;
  return name ?? (/^[a-z]+$/.test(id ?? '') ? id[0].toUpperCase() + id.slice(1) : id);
}
function unitClass(id, ctx) {
  return ((ctx?.game?.state?.units ?? []).find((u) => u.id === id) ?? (ctx?.game?.scenario?.units ?? []).find((u) => u.id === id))?.class;
}
export function pieceWords(id, ctx) {
  if (leaderOf(id, ctx)) return `leader ${leaderName(id, ctx)}`;
  const c = unitClass(id, ctx);
  return c ? `${id} (${idWords(c)})` : String(id);
}
// Where a leader is, in words: with the unit he is attached to, or alone on his hex.
function leaderPlace(l, ctx) {
  if (l.attached_to) return `with ${pieceWords(l.attached_to, ctx)}`;
  return l.at ? `alone at hex ${l.at[0]},${l.at[1]}` : 'off the board';
}

// The cards by name ("Order Three Units Center"), not by id: the names are
// the engine's (the battle's own cards carry theirs; the bundled ones are
// named by the `orders` query, asked once a game for each card in hand, and
// by a played card's result). Until then the id in words.
const cards = { game: null, names: new Map(), asked: new Set() };
function cardNames(ctx) {
  if (cards.game !== ctx?.game?.id) {
    const own = (ctx?.game?.scenario?.cards ?? []).filter((c) => c?.id && c?.name).map((c) => [c.id, c.name]);
    Object.assign(cards, { game: ctx?.game?.id ?? null, names: new Map(own), asked: new Set() });
  }
  return cards.names;
}
export function cardName(id, ctx) {
  const w = idWords(String(id ?? '').replaceAll('-', ' '));
  return cardNames(ctx).get(id) ?? w.charAt(0).toUpperCase() + w.slice(1);
}
// Asks the engine the names of the cards in `ids` not yet named, then redraws.
function askCardNames(ctx, ids) {
  const names = cardNames(ctx);
  const missing = ids.filter((id) => !names.has(id) && !cards.asked.has(id));
  if (!missing.length) return;
  for (const id of missing) cards.asked.add(id);
  const game = ctx.game.id;
  Promise.all(missing.map((card) => ctx.query('orders', { card }).then((p) => { if (cards.game === game && p?.name) names.set(card, p.name); }, () => null)))
    .then(() => { if (ctx.game?.id === game && !ctx.replay) ctx.refresh(false); });
}

// The phases as the status line names them (the engine's "play_card").
const PHASES = { play_card: 'play a card', movement: 'movement', battle: 'battle' };
export function phaseWords(phase) { return PHASES[phase] ?? idWords(phase); }

export function render(root, state, ctx) {
  const sc = ctx.game.scenario;
  // Selections belong to one player's turn: cleared when the turn passes.
  if (ui.gameId !== turnKey(ctx.game)) Object.assign(ui, { gameId: turnKey(ctx.game), card: null, plan: null, selected: [], dest: null, attacker: null, targets: null, odds: null, focus: null });
  // A destination shown and the unit selected belong to the movement: gone in the battles.
  if (state.phase !== 'movement') Object.assign(ui, { dest: null, selected: [] });
  const cols = sc.board?.columns ?? 13, rows = sc.board?.rows ?? 9;
  const H = (rows - 1) * S3 / 2 + 1.2;
  const terrainAt = new Map();
  for (const t of sc.terrain ?? []) for (const h of t.hexes ?? []) terrainAt.set(`${h[0]},${h[1]}`, t.type);
  // The battle phase has a third row of legend: its rings.
  const legendRows = state.phase === 'battle' ? 3 : 2;
  const s = svg('svg', { viewBox: `-0.2 -0.2 ${cols + 0.4} ${H + 0.6 + 0.42 * legendRows}`, role: 'img', 'aria-label': 'Ancients board', id: 'an-svg' });
  const destAt = new Map((ui.dest?.destinations ?? []).map((d) => [`${d.hex[0]},${d.hex[1]}`, d]));
  const unitAt = new Set((state.units ?? []).filter((u) => u.at && u.blocks > 0).map((u) => `${u.at[0]},${u.at[1]}`));
  const loneLeaderAt = new Set((state.leaders ?? []).filter((l) => l.at && !l.attached_to).map((l) => `${l.at[0]},${l.at[1]}`));
  const leaderWith = new Map((state.leaders ?? []).filter((l) => l.at && l.attached_to).map((l) => [l.attached_to, l]));
  const hexes = svg('g', { class: 'hexes' });
  for (let row = 0; row < rows; ++row) {
    const n = row & 1 ? cols - 1 : cols;
    for (let col = 0; col < n; ++col) {
      const key = `${col},${row}`;
      const c = centre([col, row]);
      const type = terrainAt.get(key);
      const d = destAt.get(key);
      hexes.append(svg('polygon', { points: hexPoints(c), fill: TERRAIN[type] ?? (type ? '#d9d2c0' : TERRAIN.clear), stroke: '#8a8170', 'stroke-width': 0.02, 'data-hex': key },
        svg('title', {}, `hex ${col},${row}${type ? ': ' + idWords(type) : ''}`)));
      if (type) hexes.append(svg('text', { x: c[0], y: c[1] - 0.3, 'font-size': 0.13, 'text-anchor': 'middle', fill: '#33302a', 'pointer-events': 'none' }, idWords(type)));
      if (d) {
        const battle = d.may_battle, must = d.close_combat_compulsory;
        hexes.append(svg('polygon', { class: 'destination', 'data-hex': key, points: hexPoints(c, 0.9), fill: ui.dest.leader ? '#f5d76e' : battle ? '#7dd87d' : '#f0a35e', 'fill-opacity': 0.8, stroke: must ? '#b00020' : '#2d5a27', 'stroke-width': 0.04 },
          svg('title', {}, d.battle_reason ?? hexesWords(d.hexes))));
        // The hexes moved, then (a unit's) whether it may battle after, in
        // words: "2 hexes" over "battle", "no battle" or "must battle".
        // A leader may move onto a friendly unit's hex (to join it): there the
        // words go above the unit's tile, which would hide them.
        const occupied = unitAt.has(key);
        hexes.append(svg('text', { class: 'dest-hexes', x: c[0], y: c[1] - (occupied ? 0.26 : 0.17), 'font-size': occupied ? 0.13 : 0.16, 'font-weight': 700, 'text-anchor': 'middle', fill: '#1d2b1a', 'pointer-events': 'none' }, hexesWords(d.hexes)));
        if (!ui.dest.leader) hexes.append(svg('text', { class: 'dest-battle', x: c[0], y: c[1] - 0.01, 'font-size': 0.13, 'font-weight': 700, 'text-anchor': 'middle', fill: must ? '#7a0016' : '#1d2b1a', 'pointer-events': 'none' }, battle ? (must ? 'must battle' : 'battle') : 'no battle'));
        // A lone leader's tag takes the foot of the hex (a unit moving there joins him).
        if (!loneLeaderAt.has(key) && !occupied) hexes.append(svg('text', { x: c[0], y: c[1] + 0.3, 'font-size': 0.13, 'text-anchor': 'middle', fill: '#1d2b1a', 'pointer-events': 'none' }, `${col},${row}`));
      }
    }
  }
  s.append(hexes);
  // Section lines run through the centres of their column on the full rows.
  for (const line of sc.board?.section_lines ?? []) s.append(svg('line', { x1: line + 0.5, y1: 0, x2: line + 0.5, y2: H - 0.1, stroke: '#5a4a2a', 'stroke-width': 0.03, 'stroke-dasharray': '0.12,0.1', 'pointer-events': 'none' }));

  // Once a card is played its plan is the game's (the controls, drawn after
  // the board, would set ui.plan too late for this drawing); before, the
  // plan of the card the player is looking at.
  const plan = state.plan ? { units: (state.plan.units ?? []).map((id) => ({ id })), leaders: (state.plan.leaders ?? []).map((id) => ({ id })) } : ui.plan;
  const orderable = new Set([...(plan?.units ?? []).map((u) => u.id), ...(plan?.leaders ?? []).map((l) => l.id)]);
  const ordered = new Set((state.orders ?? []).map((o) => o.unit ?? o.leader));
  // The built-in opponent's turn (or choice) is its own: nothing lit or clickable for it.
  const acting = !ctx.replay && !ctx.game.terminal && mayPlay();
  const battles = acting && state.phase === 'battle' && !state.pending ? (ctx.game.legal_actions ?? []).filter((a) => a.type === 'battle') : [];
  const attackers = new Set(battles.map((a) => a.unit));
  if (ui.attacker && !attackers.has(ui.attacker)) Object.assign(ui, { attacker: null, targets: null, odds: null });
  const pieces = svg('g', { class: 'pieces' });
  const moving = ['retreat', 'evade'].includes(state.pending?.decision) ? state.pending.unit : null;
  for (const u of state.units ?? []) {
    if (!u.at || u.blocks <= 0) continue;
    const [x, y] = centre(u.at);
    const sel = ui.selected.includes(u.id) || ui.attacker === u.id;
    // Before the orders, the units the card may order; after, those ordered.
    const lit = state.phase === 'battle' ? attackers.has(u.id) : ordered.size ? ordered.has(u.id) : orderable.has(u.id);
    const may = attackers.has(u.id);
    const leader = leaderWith.get(u.id);
    const with_ = leader ? `, with leader ${leaderName(leader.id, ctx)}` : '';
    pieces.append(svg('g', { class: `piece${lit ? ' lit' : ''}${may ? ' may-battle' : ''}`, 'data-unit': u.id,
      ...(may ? { tabindex: 0, role: 'button', 'aria-pressed': String(ui.attacker === u.id), 'aria-label': `${u.id}, ${idWords(u.class)}, ${u.blocks} blocks${with_}: may battle; select to see its targets` } : {}) },
      // The unit a pending retreat or evasion moves: outlined in the blue of its hexes.
      svg('rect', { x: x - 0.32, y: y - 0.22, width: 0.64, height: 0.44, rx: 0.05, fill: SIDE_COLOURS[u.side], stroke: sel ? '#111' : moving === u.id ? '#0b3d91' : lit ? '#ffd400' : '#fff', 'stroke-width': sel || lit || moving === u.id ? 0.07 : 0.03, 'data-unit': u.id },
        svg('title', {}, `${u.id}: ${idWords(u.class)} (${classLabel(u.class)}), ${u.blocks} block${u.blocks === 1 ? '' : 's'}${with_}`)),
      svg('text', { x, y: y - 0.02, 'font-size': 0.17, 'font-weight': 700, 'text-anchor': 'middle', fill: '#fff', 'pointer-events': 'none' }, u.id),
      svg('text', { x, y: y + 0.16, 'font-size': 0.13, 'text-anchor': 'middle', fill: '#fff', 'pointer-events': 'none' }, `${classLabel(u.class)} ×${u.blocks}`)));
  }
  // Leaders: a tag with a star and his name, under the tile of the unit he
  // is with, or alone in the middle of his hex (lower when a destination's
  // words are there); lit as units are when the card may order him (or he
  // was ordered), outlined black when selected. Before, each was an "L" in a
  // circle: which leader, and that he could be ordered, did not show.
  for (const l of state.leaders ?? []) {
    if (!l.at) continue;
    const [x, y] = centre(l.at);
    const attached = !!l.attached_to;
    const name = leaderName(l.id, ctx);
    const lit = state.phase !== 'battle' && (ordered.size ? ordered.has(l.id) : orderable.has(l.id));
    const sel = ui.selected.includes(l.id);
    const top = attached ? y + 0.2 : destAt.has(`${l.at[0]},${l.at[1]}`) ? y + 0.1 : y - 0.1;
    const h = attached ? 0.17 : 0.2;
    const words = `★ ${name}`;
    // A long name is fitted to the tag's width.
    const fit = words.length * 0.12 * 0.6 > 0.58 ? { textLength: 0.58, lengthAdjust: 'spacingAndGlyphs' } : {};
    pieces.append(svg('g', { class: `leader${lit ? ' lit' : ''}${attached ? ' attached' : ''}`, 'data-unit': l.id, 'data-name': name },
      svg('rect', { x: x - 0.32, y: top, width: 0.64, height: h, rx: 0.05, fill: '#fff', stroke: sel ? '#111' : lit ? '#ffd400' : SIDE_COLOURS[l.side], 'stroke-width': sel || lit ? 0.06 : 0.025, 'data-unit': l.id },
        svg('title', {}, `leader ${name} (${ctx.game.players[l.side]}), ${leaderPlace(l, ctx)}${lit ? ': the card may order him' : ''}`)),
      svg('text', { x, y: top + h - (attached ? 0.045 : 0.055), 'font-size': 0.12, 'font-weight': 700, 'text-anchor': 'middle', fill: SIDE_COLOURS[l.side], 'pointer-events': 'none', ...fit }, words)));
  }
  s.append(pieces);
  s.append(battleMarks(state, ctx, battles));

  // Legend below the board.
  const y0 = H + 0.45;
  const legend = svg('g', { 'font-size': 0.22 });
  let x = 0.1;
  ctx.game.players.forEach((name, side) => {
    legend.append(svg('rect', { x, y: y0 - 0.16, width: 0.3, height: 0.22, fill: SIDE_COLOURS[side] }), svg('text', { x: x + 0.38, y: y0 + 0.03 }, name));
    x += 0.6 + name.length * 0.13;
  });
  legend.append(svg('rect', { x, y: y0 - 0.15, width: 0.64, height: 0.2, rx: 0.05, fill: '#fff', stroke: '#333', 'stroke-width': 0.025 }),
    svg('text', { x: x + 0.32, y: y0 + 0.01, 'font-size': 0.12, 'font-weight': 700, 'text-anchor': 'middle' }, '★ name'),
    svg('text', { x: x + 0.74, y: y0 + 0.03 }, 'a leader, under his unit or alone'));
  x += 0.74 + 33 * 0.11 + 0.3;
  legend.append(svg('text', { x, y: y0 + 0.03 }, 'unit: id, class (key below), ×blocks'));
  // Second row: the destination marks.
  const y1 = y0 + 0.42;
  x = 0.1;
  for (const [fill, text] of [['#7dd87d', 'battle: may battle after the move'], ['#f0a35e', 'no battle: may not battle after it'], ['#7dd87d', 'must battle: close combat']]) {
    legend.append(svg('rect', { x, y: y1 - 0.16, width: 0.3, height: 0.22, fill, stroke: text.startsWith('must') ? '#b00020' : '#2d5a27', 'stroke-width': 0.03 }), svg('text', { x: x + 0.38, y: y1 + 0.03 }, text));
    x += 0.7 + text.length * 0.11;
  }
  if (legendRows === 3) {
    const y2 = y1 + 0.42;
    x = 0.1;
    for (const [fill, stroke, text] of [['#f3c4c4', '#b00020', '✕ 12%: a target, the chance to eliminate it'], ['#c3d7f2', '#0b3d91', 'retreat or evade here: click to choose']]) {
      legend.append(svg('rect', { x, y: y2 - 0.16, width: 0.3, height: 0.22, fill, stroke, 'stroke-width': 0.04 }), svg('text', { x: x + 0.38, y: y2 + 0.03 }, text));
      x += 0.7 + text.length * 0.105;
    }
  }
  s.append(legend);
  root.replaceChildren(s, classKey(state));
  if (acting) attach(s, state, ctx);
  // The keyboard's place survives the redraw a choice makes.
  if (ui.focus) { s.querySelector(ui.focus)?.focus(); ui.focus = null; }
}

// The key under the board: each class badge on the board in full ("HI
// heavy infantry"), in the order the classes first stand on it.
function classKey(state) {
  const seen = [...new Set((state.units ?? []).filter((u) => u.at && u.blocks > 0).map((u) => u.class))];
  return el('div', { id: 'an-key', class: 'an-key' }, el('span', { class: 'key-head' }, 'Unit classes:'),
    seen.map((c) => el('span', { class: 'key-item', 'data-class': c }, el('b', {}, classLabel(c)), ` ${idWords(c)}`)));
}

const pct = (p) => `${(100 * p).toFixed(1)}%`;
// "close combat" or "ranged combat", as the rules name them (the query says "close" or "ranged").
const combatWords = (c) => (c === 'close' || c === 'ranged' ? `${c} combat` : idWords(c));
// A target's odds in words, as the `targets` query gives them.
export function oddsWords(attacker, t, ctx) {
  const how = `${combatWords(t.combat)}, ${t.dice} ${t.dice === 1 ? 'die' : 'dice'}`;
  if (t.leader) return `${attacker} battles leader ${leaderName(t.leader, ctx)} (${how}): kills him ${pct(t.eliminate)}`;
  return `${attacker} battles ${t.target} (${how}): hits at least once ${pct(t.at_least_one_hit)} · eliminates ${pct(t.eliminate)} · forces a retreat ${pct(t.retreat)}${t.retreat_by_choice > 0 ? ` · offers a retreat it may decline ${pct(t.retreat_by_choice)}` : ''}`;
}

// The battle phase's marks over the pieces: the selected unit's targets
// (a red ring, its chance to eliminate), or the hexes a retreat or an
// evasion of the player's may end on (a blue ring).
function battleMarks(state, ctx, battles) {
  const g = svg('g', { class: 'battle-marks' });
  const at = new Map([...(state.units ?? []).filter((u) => u.at).map((u) => [u.id, u.at]), ...(state.leaders ?? []).filter((l) => l.at).map((l) => [l.id, l.at])]);
  if (ui.attacker && ui.targets) {
    const withLeader = new Set((state.leaders ?? []).filter((l) => l.at && l.attached_to).map((l) => l.attached_to));
    for (const t of ui.targets.targets ?? []) {
      const id = t.target ?? t.leader;
      const action = battles.find((a) => a.unit === ui.attacker && a.target === id);
      if (!action || !at.has(id)) continue;
      const c = centre(at.get(id));
      // The chance goes under the target, or above it when a leader's tag is under it.
      const py = withLeader.has(id) ? c[1] - 0.47 : c[1] + 0.24;
      g.append(svg('g', { class: 'target', 'data-target': id, tabindex: 0, role: 'button', 'aria-label': `${oddsWords(ui.attacker, t, ctx)}. Enter rolls.` },
        svg('polygon', { points: hexPoints(c, 0.96), fill: '#d62828', 'fill-opacity': ui.odds?.id === id ? 0.35 : 0.18, stroke: '#b00020', 'stroke-width': 0.07 }),
        svg('rect', { x: c[0] - 0.3, y: py, width: 0.6, height: 0.2, rx: 0.04, fill: '#fff', stroke: '#b00020', 'stroke-width': 0.02, 'pointer-events': 'none' }),
        svg('text', { x: c[0], y: py + 0.15, 'font-size': 0.14, 'font-weight': 700, 'text-anchor': 'middle', fill: '#7a0016', 'pointer-events': 'none' }, `✕ ${pct(t.eliminate)}`)));
    }
  }
  const p = state.pending;
  if (p && (p.decision === 'retreat' || p.decision === 'evade') && !ctx.replay && mayPlay()) {
    for (const a of ctx.game.legal_actions ?? []) {
      if (a.type !== p.decision || !Array.isArray(a.to)) continue;
      const c = centre(a.to);
      const holding = holds(a, state);
      const label = holding ? 'hold' : p.decision === 'retreat' ? 'retreat' : 'evade';
      const words = holding ? `${pieceWords(p.unit, ctx)} holds on hex ${a.to[0]},${a.to[1]}, ${ignoringWords(p)}`
        : `${label} ${pieceWords(p.unit, ctx)} to hex ${a.to[0]},${a.to[1]}`;
      g.append(svg('g', { class: 'choice', 'data-choice': JSON.stringify(a), 'data-hex': `${a.to[0]},${a.to[1]}`, tabindex: 0, role: 'button', 'aria-label': `${words}. Enter picks it.` },
        svg('polygon', { points: hexPoints(c, 0.96), fill: '#1f6fd1', 'fill-opacity': 0.25, stroke: '#0b3d91', 'stroke-width': 0.07 }),
        svg('title', {}, words),
        // Holding, the unit's own piece fills the hex: the word goes on a tag above it.
        ...(holding ? [svg('rect', { x: c[0] - 0.3, y: c[1] - 0.5, width: 0.6, height: 0.2, rx: 0.04, fill: '#fff', stroke: '#0b3d91', 'stroke-width': 0.02, 'pointer-events': 'none' }),
          svg('text', { x: c[0], y: c[1] - 0.35, 'font-size': 0.14, 'font-weight': 700, 'text-anchor': 'middle', fill: '#0b3d91', 'pointer-events': 'none' }, 'hold')]
          : [svg('text', { x: c[0], y: c[1] + 0.05, 'font-size': 0.15, 'font-weight': 700, 'text-anchor': 'middle', fill: '#0b3d91', 'pointer-events': 'none' }, label),
            svg('text', { x: c[0], y: c[1] + 0.24, 'font-size': 0.13, 'text-anchor': 'middle', fill: '#0b3d91', 'pointer-events': 'none' }, `${a.to[0]},${a.to[1]}`)])));
    }
  }
  return g;
}

// Selects (or, again, deselects) a unit that may battle and asks the engine for its targets.
async function selectAttacker(ctx, state, root, id, byKeyboard) {
  if (ui.attacker === id) Object.assign(ui, { attacker: null, targets: null, odds: null });
  else {
    try {
      const targets = await ctx.query('targets', { unit: id });
      Object.assign(ui, { attacker: id, targets, odds: null });
      ctx.message(el('div', { id: 'an-targets-said' }, `${id}: ${targets.targets.length} target${targets.targets.length === 1 ? '' : 's'} ringed. Point at one (or Tab to it) for the odds; click it (or Enter) to roll.`));
    } catch (e) { ctx.showError(e); return; }
  }
  if (byKeyboard) ui.focus = ui.attacker ? '.target' : `[data-unit="${id}"].may-battle`;
  render(root, state, ctx);
  renderControls(ctx);
}

// The odds of the target pointed at or focused, in the controls.
function showOdds(id, ctx) {
  const t = (ui.targets?.targets ?? []).find((x) => (x.target ?? x.leader) === id);
  if (!t) return;
  ui.odds = { id, words: oddsWords(ui.attacker, t, ctx) };
  const box = document.getElementById('an-odds');
  if (box) box.textContent = ui.odds.words;
}

function attach(s, state, ctx) {
  const root = s.parentNode;
  // Enter or Space on a focused mark or piece acts as a click on it.
  s.addEventListener('keydown', (ev) => {
    if (ev.key !== 'Enter' && ev.key !== ' ') return;
    const mark = ev.target.closest?.('.target, .choice, .may-battle');
    if (!mark) return;
    ev.preventDefault();
    act(mark, true);
  });
  for (const mark of s.querySelectorAll('.target')) {
    mark.addEventListener('mouseenter', () => showOdds(mark.dataset.target, ctx));
    mark.addEventListener('focus', () => showOdds(mark.dataset.target, ctx));
  }
  // A battle-phase mark or piece: roll, pick, or select. False for anything else.
  async function act(mark, byKeyboard = false) {
    if (mark.classList.contains('target')) {
      const action = { type: 'battle', unit: ui.attacker, target: mark.dataset.target };
      Object.assign(ui, { attacker: null, targets: null, odds: null });
      await ctx.apply(action, describe(action, ctx));
      return true;
    }
    if (mark.classList.contains('choice')) {
      if (byKeyboard) ui.focus = '.choice';
      await ctx.apply(JSON.parse(mark.dataset.choice));
      return true;
    }
    if (mark.classList.contains('may-battle')) {
      await selectAttacker(ctx, state, root, mark.dataset.unit, byKeyboard);
      return true;
    }
    return false;
  }
  s.addEventListener('click', async (ev) => {
    const t = ev.target;
    const mark = t.closest?.('.target, .choice, .may-battle');
    if (mark && await act(mark)) return;
    if (state.phase === 'battle') {
      if (ui.attacker) { Object.assign(ui, { attacker: null, targets: null, odds: null }); render(root, state, ctx); renderControls(ctx); }
      return;
    }
    const hex = t.dataset?.hex;
    if (hex && ui.dest && t.classList.contains('destination')) {
      const [col, row] = hex.split(',').map(Number);
      const piece = ui.dest.unit ?? ui.dest.leader;
      const action = { type: 'move', [ui.dest.leader ? 'leader' : 'unit']: piece, to: [col, row] };
      ui.dest = null;
      await ctx.apply(action);
      return;
    }
    const id = t.dataset?.unit;
    if (!id) { ui.dest = null; render(s.parentNode, state, ctx); return; }
    if (state.phase === 'movement' && (state.orders ?? []).length === 0) {
      // Choosing what the card orders: toggle.
      ui.selected = ui.selected.includes(id) ? ui.selected.filter((x) => x !== id) : [...ui.selected, id];
      render(s.parentNode, state, ctx);
      renderControls(ctx);
      return;
    }
    ui.selected = [id];
    try {
      const d = await ctx.query('destinations', { unit: id });
      ui.dest = d;
      if (d.violations?.length) await ctx.showVerdict({ legal: false, violations: d.violations }, `${id} cannot move now`);
      else ctx.message(el('div', {}, `${id}: ${d.count} destination${d.count === 1 ? '' : 's'}, allowance ${d.allowance} hex${d.allowance === 1 ? '' : 'es'}. Click one to move.`));
    } catch (e) { ctx.showError(e); }
    render(s.parentNode, state, ctx);
  });
}

async function showPlan(ctx, card) {
  ui.card = card;
  try { ui.plan = await ctx.query('orders', { card }); } catch (e) { ctx.showError(e); ui.plan = null; }
  if (ui.plan?.name) cardNames(ctx).set(card, ui.plan.name);
  ctx.refresh(false);
}

function renderControls(ctx) {
  const root = document.getElementById('controls');
  const state = ctx.game.state;
  if (ctx.replay || ctx.game.system !== 'ancients') return;
  // Over: the banners each side won, under the result the status gives.
  if (ctx.game.terminal) { fill(root, el('h2', {}, 'Final banners'), bannersLine(ctx)); return; }
  // Another player's turn, the built-in opponent's, or watching: nothing to
  // act with (the status says whose turn), but the cards this board may see.
  if (!mayPlay()) { fill(root, cardsLine(ctx)); return; }
  const side = state.side;
  const hand = state.hands?.[side] ?? [];
  if (state.phase === 'play_card') {
    askCardNames(ctx, hand);
    // The leaders the card may order, each with where he is (the plan names them).
    const planLeaders = (ui.plan?.leaders ?? []).map((l) => leaderOf(l.id, ctx)).filter(Boolean);
    fill(root, el('h2', {}, `${ctx.game.players[side]}: play a card`),
      el('div', { class: 'cards' }, hand.map((c) => el('div', { class: 'controls-row' },
        el('button', { type: 'button', 'data-card': c, class: ui.card === c ? 'primary' : '', title: `card ${c}`, onclick: () => showPlan(ctx, c) }, cardName(c, ctx)),
        ui.card === c ? el('button', { type: 'button', class: 'primary', id: 'play-card', onclick: async () => { ui.plan = null; ui.card = null; await ctx.apply({ type: 'play_card', card: c }, describe({ type: 'play_card', card: c }, ctx)); } }, 'Play') : null))),
      ui.plan ? el('div', {}, `${ui.plan.reason} (${ui.plan.orders} order${ui.plan.orders === 1 ? '' : 's'}; lit units and leaders may be ordered)`) : el('div', {}, 'Pick a card to light up the units and leaders it can order.'),
      planLeaders.length ? el('div', { id: 'an-plan-leaders' }, `Leaders it may order: ${planLeaders.map((l) => `${leaderName(l.id, ctx)}, ${leaderPlace(l, ctx)}`).join('; ')}`) : null,
      leadersLine(ctx));
    return;
  }
  if (state.phase === 'battle') {
    // The battles of the units ordered, one at a time, from the Actions list;
    // a choice the rules give a player (evade, the retreat's path, momentum)
    // is offered there to the side that makes it.
    // On the board too: select a lit unit, its targets are ringed with the
    // engine's odds; a retreat's or an evasion's hexes are ringed to pick.
    const p = state.pending;
    const acts = ctx.game.legal_actions ?? [];
    const button = (type, words) => (acts.some((a) => a.type === type)
      ? el('button', { type: 'button', id: `an-${type.replace('_', '-')}`, onclick: () => ctx.apply({ type }, describe({ type }, ctx)) }, words) : null);
    // A pending evasion or retreat is the other side's choice: the heading
    // names the side that chooses (its `unit` decides), whose turn or not.
    const chooser = p ? (state.units ?? []).find((u) => u.id === p.unit)?.side ?? side : side;
    fill(root, el('h2', {}, `${ctx.game.players[chooser]}: ${chooser === side ? 'battle' : `choose (${ctx.game.players[side]}'s battle)`}`),
      p ? el('div', { id: 'an-pending' }, p.decision === 'evade' ? `${p.defender} may evade ${p.attacker}'s attack (click a blue hex), or stand.`
        : p.decision === 'retreat' ? retreatChoiceWords(p, state, acts)
          : `${p.unit} won its close combat: advance into the hex taken, or hold.`)
        : el('div', {}, ui.attacker ? `${ui.attacker} is selected: point at a red-ringed target for the odds, click it to roll.`
          : 'Choose a battle in Actions (each ordered unit may battle once), or click a lit unit to ring its targets on the board; or end the battles.'),
      p ? null : el('div', { id: 'an-odds', role: 'status', 'aria-live': 'polite' }, ui.odds?.words ?? (ui.attacker ? 'Odds: point at or focus a target.' : '')),
      el('div', { class: 'controls-row' }, button('stand', 'Stand'), button('advance', 'Advance'), button('hold', 'Hold'), holdGround(state, acts, ctx), button('end_battle', 'End the battles')),
      bannersLine(ctx), leadersLine(ctx));
    return;
  }
  const plan = state.plan;
  ui.plan = plan ? { units: (plan.units ?? []).map((id) => ({ id })), leaders: (plan.leaders ?? []).map((id) => ({ id })) } : null;
  const ordered = (state.orders ?? []).length > 0;
  fill(root, el('h2', {}, `${ctx.game.players[side]}: ${state.card ? cardName(state.card, ctx) : ''}`),
    el('div', {}, plan?.reason ?? ''),
    ordered ? el('div', { id: 'an-ordered' }, `Ordered: ${(state.orders ?? []).map((o) => orderedWords(o.unit ?? o.leader, ctx)).join('; ')}. Click one to see where it can go.`)
      : el('div', { class: 'controls-row' }, `Choose up to ${plan?.total ?? '?'}: `, el('strong', {}, ui.selected.join(', ') || '(click lit units or leaders)'),
        el('button', { type: 'button', class: 'primary', id: 'give-orders', disabled: !ui.selected.length, onclick: async () => {
          const units = ui.selected.filter((id) => state.units.some((u) => u.id === id));
          const leaders = ui.selected.filter((id) => state.leaders.some((l) => l.id === id));
          ui.selected = [];
          await ctx.apply({ type: 'order', ...(units.length ? { units } : {}), ...(leaders.length ? { leaders } : {}) });
        } }, 'Order them')),
    // The end of the movement, here beside the orders as well as in Actions.
    ordered && (ctx.game.legal_actions ?? []).some((a) => a.type === 'end_movement')
      ? el('div', { class: 'controls-row' }, el('button', { type: 'button', class: 'primary', id: 'an-end-movement',
        onclick: () => ctx.apply({ type: 'end_movement' }, describe({ type: 'end_movement' }, ctx)) }, 'End movement: on to the battles')) : null,
    leadersLine(ctx));
}

// A retreat to the retreating unit's own hex: it holds there, ignoring the
// flags support or its leader let it ignore (docs/rulings.md#ancients-support).
function holds(a, state) {
  const p = state?.pending;
  const own = (state?.units ?? []).find((u) => u.id === p?.unit)?.at;
  return p?.decision === 'retreat' && a?.type === 'retreat' && !!own && a.to?.[0] === own[0] && a.to?.[1] === own[1];
}
const ignoringWords = (p) => `ignoring ${p.flags === 1 ? 'the flag' : 'the flags it may'}`;
// The pending retreat's hold among the legal actions, if it is one.
const holdAction = (state, acts) => acts.find((a) => holds(a, state));
function retreatChoiceWords(p, state, acts) {
  const flags = flagsWords(p.flags);
  const may = Math.min(p.may_ignore ?? 0, p.flags);
  return holdAction(state, acts)
    ? `${p.unit} has ${flags} against it and may ignore ${may === 1 ? 'one' : may}: hold its ground (the button, or its own hex) or retreat (a blue hex).`
    : `${p.unit} must retreat for ${flags}${may ? ` (it may ignore ${may === 1 ? 'one' : may}: choose how far)` : ''}: choose where (click a blue hex).`;
}
function holdGround(state, acts, ctx) {
  const a = holdAction(state, acts);
  return a ? el('button', { type: 'button', id: 'an-hold-ground', onclick: () => ctx.apply(a, describe(a, ctx)) }, 'Hold its ground') : null;
}

// An ordered piece in words, with the leader a unit carries ("a_f4 (heavy
// infantry) with Scipio"), or where a leader stands.
function orderedWords(id, ctx) {
  const l = leaderOf(id, ctx);
  if (l) return `${pieceWords(id, ctx)}, ${leaderPlace(l, ctx)}`;
  const carried = (ctx.game.state.leaders ?? []).find((x) => x.attached_to === id);
  return `${pieceWords(id, ctx)}${carried ? ` with ${leaderName(carried.id, ctx)}` : ''}`;
}

// Every leader on the board and where he is, side by side: the tags on the
// board name them, this says which unit each is with.
function leadersLine(ctx) {
  const leaders = (ctx.game.state.leaders ?? []).filter((l) => l.at);
  if (!leaders.length) return null;
  return el('div', { id: 'an-leaders' }, `Leaders: ${ctx.game.players.map((army, side) => {
    const mine = leaders.filter((l) => l.side === side);
    return mine.length ? `${army}: ${mine.map((l) => `${leaderName(l.id, ctx)} ${leaderPlace(l, ctx)}`).join(', ')}` : null;
  }).filter(Boolean).join(' · ')}`);
}

// The banners won, each side's of those it needs.
// The command cards as this board may know them (docs/rulings.md#ancients-hidden-cards):
// a hand it holds by name, any other hand and every deck by its count.
function cardsLine(ctx) {
  const st = ctx.game.state;
  const sizes = st.hand_sizes ?? (st.hands ?? []).map((h) => h?.length ?? 0);
  const decks = st.deck_sizes ?? (st.decks ?? []).map((d) => d?.length ?? 0);
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return el('div', { id: 'an-cards' }, `Cards: ${ctx.game.players.map((army, k) => {
    const hand = st.hands?.[k];
    const held = Array.isArray(hand) && Array.isArray(ctx.game.you) && ctx.game.you.includes(k)
      ? `${army} holds ${hand.map((c) => cardName(c, ctx)).join(', ')}` : `${army} holds ${plural(sizes[k] ?? 0, 'card')}`;
    return `${held}, ${plural(decks[k] ?? 0, 'card')} in the deck`;
  }).join(' · ')}`);
}

function bannersLine(ctx) {
  const banners = Array.isArray(ctx.game.state.banners) ? ctx.game.state.banners : [];
  const goal = ctx.game.scenario?.victory_banners;
  const need = (k) => (Array.isArray(goal) ? goal[k] : goal);
  return el('div', { id: 'an-banners' }, `Banners: ${ctx.game.players.map((name, k) => `${name} ${banners[k] ?? 0}${need(k) ? ` of ${need(k)}` : ''}`).join(' · ')}`);
}

export function controls(root, ctx) { renderControls(ctx); }

// Every action in words, for the Actions list, the outcome, the log and the
// opponent's report: the card by its name, each unit by its id and class,
// each leader by his name (the engine's action stays in the tooltip).
// Before, all but the battle phase's were the action's fields ("play_card,
// card order-two-left", "order, units [\"a_f4\"]", a leader's order a bare
// "order").
const hexWords = (h) => (Array.isArray(h) ? `hex ${h[0]},${h[1]}` : String(h));
export function describe(a, ctx) {
  const list = (ids) => ids.map((id) => pieceWords(id, ctx)).join(', ');
  switch (a?.type) {
    case 'play_card': return `Play ${cardName(a.card, ctx)}`;
    case 'order': {
      const all = [...(a.units ?? (a.unit ? [a.unit] : [])), ...(a.leaders ?? (a.leader ? [a.leader] : []))];
      return all.length ? `Order ${list(all)}` : 'Order nothing';
    }
    case 'move': return `Move ${pieceWords(a.unit ?? a.leader, ctx)} to ${hexWords(a.to)}`;
    case 'battle': return `${pieceWords(a.unit, ctx)} battles ${pieceWords(a.target, ctx)}`;
    case 'evade': return `Evade to ${hexWords(a.to)}`;
    case 'stand': return 'Stand and take the attack (no evasion)';
    case 'retreat': {
      const state = ctx?.game?.state;
      if (holds(a, state)) return `Hold its ground on ${hexWords(a.to)}, ${ignoringWords(state.pending)}`;
      return `Retreat to ${hexWords(a.to)}`;
    }
    case 'advance': return 'Advance into the hex taken (momentum)';
    case 'hold': return 'Hold: no momentum advance';
    case 'end_battle': return 'End the battles: the turn passes';
    case 'end_movement': return 'End movement: on to the battles';
    default: return null;
  }
}

// A log line: a played card's result names the card (kept for the hand and
// the Actions list); the words are describe's.
export function describeEntry(e, ctx) {
  if (e?.action?.type === 'play_card' && e.result?.name && ctx?.game) cardNames(ctx).set(e.action.card, e.result.name);
  return null;
}

// A battle's result in words, from the engine's figures: dice, hits and
// their reason, flags (and those ignored), blocks lost and left, the leader's
// check, then the battle back the same way; or an evasion, a retreat, a
// momentum advance.
// Where a leader went when his unit was lost and he was not (the engine's
// leader_evade: to a friendly unit, a hex toward his edge, or off the board).
function leaderEvadeWords(e, ctx) {
  const who = `leader ${leaderName(e.leader, ctx)}`;
  if (e.escaped_off_the_board) return `${who} leaves the battle by his own edge (no banner)`;
  return `${who} evades to ${hexWords(e.to)}${e.attached_to ? ` and joins ${pieceWords(e.attached_to, ctx)}` : ''}`;
}
// A leader's casualty check, and his evasion when he survived his unit.
function leaderCheckWords(c, ctx) {
  if (c.killed) return `leader ${leaderName(c.leader, ctx)} is killed`;
  return `leader ${leaderName(c.leader, ctx)} survives${c.evade ? `; ${leaderEvadeWords(c.evade, ctx)}` : ''}`;
}
function attackWords(a, ctx) {
  if (!a) return '';
  const parts = [`${a.attacker} rolls ${a.dice} di${a.dice === 1 ? 'e' : 'ce'} at ${a.target}: ${a.hits} hit${a.hits === 1 ? '' : 's'}`];
  // Each ignored flag has its reason: "2 flags (1 ignored: supported ...)".
  const ignored = a.flags_ignored ?? [];
  if (a.flags) parts.push(`${a.flags} flag${a.flags === 1 ? '' : 's'}${ignored.length ? ` (${ignored.length} ignored: ${ignored.map((f) => f.why).join('; ')})` : ''}`);
  const res = a.result ?? {};
  if (res.eliminated) parts.push(`${a.target} is eliminated`);
  else if (res.blocks_left !== undefined) parts.push(`${a.target} has ${res.blocks_left} block${res.blocks_left === 1 ? '' : 's'} left`);
  if (a.leader_check) parts.push(leaderCheckWords(a.leader_check, ctx));
  // A lone leader who lived through the attack evades as a leader does.
  if (a.evade?.leader) parts.push(leaderEvadeWords(a.evade, ctx));
  else if (a.evade) parts.push(a.evade.removed ? `${a.evade.unit} is removed (${a.evade.reason})` : `${a.evade.unit} evades${endOf(a.evade) ? ` to ${hexWords(endOf(a.evade))}` : ''}`);
  if (a.leader_evade) parts.push(leaderEvadeWords(a.leader_evade, ctx));
  // The retreat the flags forced (when it had one path).
  if (a.retreat) parts.push(retreatWords(a.retreat, ctx));
  return parts.join('; ') + '.';
}
// The hex a move back (a retreat, an evasion) ended on, when it moved.
const endOf = (r) => (r.hexes && r.path?.length ? r.path[r.path.length - 1] : null);
// A retreat in words: how far it had to go, where it went, the blocks lost
// where it was blocked, the leader's check.
const flagsWords = (n) => `${n} flag${n === 1 ? '' : 's'}`;
// The flags a chosen retreat ignored, and those its owner chose not to.
function ignoredWords(r) {
  const parts = (r.flags_ignored ?? []).map((f) => `a flag ignored (${f.why})`);
  if (r.flags_not_ignored) parts.push(r.flags_not_ignored.why);
  return parts.join('; ');
}
function retreatWords(r, ctx) {
  const hexes = (n) => `${n} hex${n === 1 ? '' : 'es'}`;
  const parts = [`${r.unit} must retreat ${hexes(r.demanded)}: ${r.hexes ? `retreats ${hexes(r.hexes)}${endOf(r) ? ` to ${hexWords(endOf(r))}` : ''}` : 'cannot retreat'}`];
  if (r.loss) parts.push(`${r.loss.reason}: ${r.loss.eliminated ? `${r.unit} is eliminated` : `${r.unit} has ${r.loss.blocks_left} block${r.loss.blocks_left === 1 ? '' : 's'} left`}`);
  if (r.leader_check) parts.push(leaderCheckWords(r.leader_check, ctx));
  if (r.leader_evade) parts.push(leaderEvadeWords(r.leader_evade, ctx));
  return parts.join('; ');
}
export function summarize(r, ctx) {
  if (!r || typeof r !== 'object') return null;
  if (r.attack) {
    const words = [attackWords(r.attack, ctx)];
    if (r.attack.battle_back) words.push(`Battle back: ${attackWords(r.attack.battle_back, ctx)}`);
    return words.join(' ');
  }
  // A retreat whose hex was chosen, or a unit that chose to hold by ignoring its flags.
  if (r.holds && r.unit) return `${r.unit} holds its ground, ignoring ${flagsWords(r.flags)} (${(r.flags_ignored ?? []).map((f) => f.why).join('; ')}).`;
  if (r.demanded !== undefined && r.unit) return `${[ignoredWords(r), retreatWords(r, ctx)].filter(Boolean).join('; ')}.`;
  // A lone leader attacked: only leader helmets hit him; one kills him.
  if (r.unit && r.target && typeof r.killed === 'boolean') {
    const who = `leader ${leaderName(r.target, ctx)}`;
    const rolled = `${r.unit} rolls ${r.dice} di${r.dice === 1 ? 'e' : 'ce'} at ${who}: ${r.hits} leader helmet${r.hits === 1 ? '' : 's'}`;
    return `${rolled}; ${r.killed ? `${who} is killed` : `${who} lives${r.evade ? `; ${leaderEvadeWords(r.evade, ctx)}` : ''}`}.`;
  }
  return null;
}

registerBoard('ancients', { render, controls, filterActions, describe, describeEntry, summarize, phaseWords });
