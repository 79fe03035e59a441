// The Warmaster table: terrain, stands with their facing, characters, a
// scale and a legend; a selected unit's reach shaded (the `reach` query);
// stands dragged and turned (the rotate handle, or the wheel) with the move
// checked on the server while they move; orders with what they need on 2D6;
// the engine's evade drawn where initiative offers one (`evade_plan`); the
// exact odds of the Shooting and Combat phases before they are rolled
// (`shooting_odds`, `combat_odds`).
//
// Coordinates are the engine's: centimetres, y northward, facings in compass
// degrees (0 faces +y). The picture puts north at the top.
import { el, fill, describeAction, holds, mayPlay, choosesFor, registerBoard, playedByOpponent } from './shell.js';

const NS = 'http://www.w3.org/2000/svg';
const SIDE_COLOURS = ['#2f5fb3', '#b33a2f'];
const TERRAIN_STYLE = {
  open_hill: ['#cdbf8a', '#9e8f55'], steep_hill: ['#b49a66', '#7d6637'], wood: ['#7fae6a', '#4f7d3d'],
  village: ['#c9a48a', '#8a6248'], marsh: ['#9fc3b5', '#5f8a7a'], broken_ground: ['#c2b8a3', '#8c826d'],
  deep_river: ['#6fa4d8', '#3f74a8'], shallow_river: ['#9cc6ea', '#5f94c2'], river: ['#6fa4d8', '#3f74a8'],
  low_obstacle: ['none', '#6b4f2f'], wall: ['none', '#6b4f2f'], hedge: ['none', '#4f7d3d'],
  grown_field: ['#e3d98f', '#b3a85a'], bridge: ['#a8865a', '#6b4f2f'], ford: ['#9cc6ea', '#5f94c2'],
};

function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// Per-game memory of the board: what is selected, the reach shown, a drag.
const ui = { gameId: null, selected: [], reach: null, drag: null, lastCheck: null, evades: [], evadePlans: new Map(), evadeKey: '' };

function standSize(unit) {
  const infantry = unit.type === 'infantry' || unit.type === undefined;
  const w = unit.frontage ?? (infantry ? 4 : 2);
  const d = unit.depth ?? (infantry ? 2 : 4);
  return [w, d];
}

// The four corners of a stand centred at (x, y), facing f (compass degrees).
function boxOf(points) {
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  return { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
}

function overlap(a, b) {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0), h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  return w > 0 && h > 0 ? w * h : 0;
}

// Where each label goes: above its unit (characters: below), else below,
// right or left of it, else a little further off; the first place that
// covers no stand, character or label already placed and stays on the
// table, or failing that the place that covers least. Units in contact sit
// close, and labels written always above them ran over one another.
export function placeLabels(wanted, obstacles, table) {
  const placed = [];
  const out = [];
  for (const l of wanted) {
    const tw = l.text.length * l.size * 0.56, th = l.size * 1.05, gap = 0.6;
    const { x0, x1, y0, y1 } = l.box, mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
    const above = { x: mx, y: y0 - gap - th / 2 }, below = { x: mx, y: y1 + gap + th / 2 };
    const spots = [l.below ? below : above, l.below ? above : below,
      { x: x1 + gap + tw / 2, y: my }, { x: x0 - gap - tw / 2, y: my }];
    for (const k of [1, 2]) spots.push({ x: mx, y: y0 - gap - th / 2 - k * th }, { x: mx, y: y1 + gap + th / 2 + k * th });
    let best = null, bestCost = Infinity;
    for (const p of spots) {
      const b = { x0: p.x - tw / 2, x1: p.x + tw / 2, y0: p.y - th / 2, y1: p.y + th / 2 };
      let cost = 0;
      for (const o of obstacles) cost += overlap(b, o);
      for (const o of placed) cost += 2 * overlap(b, o);
      const outside = (b.x1 - b.x0) * (b.y1 - b.y0) - overlap(b, table);
      cost += outside;
      if (cost < bestCost - 1e-9) { bestCost = cost; best = { p, b }; }
      if (cost === 0) break;
    }
    placed.push(best.b);
    // SVG text sits on its baseline: about a third of the height below the centre.
    out.push({ x: best.p.x, y: best.p.y + th * 0.33, size: l.size, text: l.text, attrs: l.attrs });
  }
  return out;
}

function corners(x, y, f, w, d) {
  const r = (f * Math.PI) / 180;
  const F = [Math.sin(r), Math.cos(r)], R = [Math.cos(r), -Math.sin(r)];
  const p = (a, b) => [x + R[0] * a + F[0] * b, y + R[1] * a + F[1] * b];
  return [p(-w / 2, d / 2), p(w / 2, d / 2), p(w / 2, -d / 2), p(-w / 2, -d / 2)];
}

function scenarioUnits(scenario) {
  const map = new Map();
  (scenario.armies ?? []).forEach((army, side) => {
    for (const u of army.units ?? []) map.set(u.id, { ...u, side, army: army.name });
    // A character naming its army list's profile ("troop") takes its role,
    // Command and Attacks from it (docs/warmaster-format.md, "Characters").
    const profiles = Array.isArray(scenario.army_list?.characters) ? scenario.army_list.characters : [];
    for (const c of army.characters ?? []) {
      const profile = profiles.find((p) => p.id === c.troop) ?? {};
      map.set(c.id, { ...profile, ...c, side, army: army.name, character: true });
    }
  });
  return map;
}

// Names for people (docs/warmaster-format.md: each unit and character may
// have a "name"): a unit's name, numbered where its army repeats it
// ("Orc Boyz 2"); a character's name; the id where there is none. Ids stay
// in tooltips and the log.
const names = { game: null, map: new Map() };
export function nameOf(id, ctx) {
  if (names.game !== ctx.game.id) {
    names.game = ctx.game.id;
    names.map = new Map();
    for (const army of ctx.game.scenario?.armies ?? []) {
      const count = new Map();
      for (const u of army.units ?? []) if (u.name) count.set(u.name, (count.get(u.name) ?? 0) + 1);
      const seen = new Map();
      for (const u of army.units ?? []) {
        if (!u.name) continue;
        const k = (seen.get(u.name) ?? 0) + 1;
        seen.set(u.name, k);
        names.map.set(u.id, count.get(u.name) > 1 ? `${u.name} ${k}` : u.name);
      }
      for (const c of army.characters ?? []) if (c.name) names.map.set(c.id, c.name);
    }
  }
  return names.map.get(id) ?? id;
}

// The engine's text (a ruling's reason, what a die was rolled for) in
// words: every unit and character id in it replaced by its name, longest id
// first, so that "emp-halberd-1" is not read as "emp-halberd" and a 1.
export function words(text, ctx) {
  nameOf('', ctx);
  if (!names.map.size || typeof text !== 'string') return text;
  if (names.game !== names.wordsGame) {
    names.wordsGame = names.game;
    const ids = [...names.map.keys()].sort((a, b) => b.length - a.length).map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    names.pattern = new RegExp(`(?<![\\w-])(${ids.join('|')})(?![\\w-])`, 'g');
  }
  return text.replace(names.pattern, (id) => names.map.get(id) ?? id);
}

// How far a planned move takes a unit (its farthest stand), in cm, from the state now.
function planDistance(move, ctx) {
  const u = (ctx.game.state.units ?? []).find((x) => x.id === move?.unit);
  if (!u || !move?.stands) return null;
  const far = Math.max(...move.stands.map((st) => { const p = u.stands[st.stand]; return p ? Math.hypot(st.to.x - p.x, st.to.y - p.y) : 0; }));
  return round1(far);
}

// An action in words, as the play sheet names things: for the buttons, the
// outcome panel, the log and the opponent's report.
export function describe(a, ctx, offered = false) {
  const n = (id) => nameOf(id, ctx);
  const far = (move) => (offered ? planDistance(move, ctx) : null);
  const list = (ids) => ids.map(n).join(' + ');
  switch (a?.type) {
    case 'order': return `Order ${list(a.units ?? (a.unit ? [a.unit] : []))} (${n(a.character)})`;
    case 'initiative': {
      const d = far(a.move);
      return a.kind === 'charge'
        ? `Initiative: ${n(a.unit)} charges ${n(a.target)}${d !== null ? `, ${d} cm` : ''}`
        : `Initiative: ${n(a.unit)} evades from ${n(a.target)}${d !== null ? `, ${d} cm` : ''}`;
    }
    case 'move': {
      if (!a.moves?.length) return 'Hold: the ordered units stay where they are';
      return a.moves.map((m) => {
        if (m.kind === 'charge') return `${n(m.unit)} charges ${n(m.target)}`;
        const d = far(m);
        return `Move ${n(m.unit)}${d !== null ? ` ${d} cm` : ''}`;
      }).join('; ');
    }
    case 'end_orders': return 'End the orders: on to the characters\' moves';
    case 'end_phase': {
      // The phase it ends is known only for one offered now (the log's are past).
      if (!offered) return 'End the phase';
      const phase = String(ctx.game.phase ?? '');
      if (phase.startsWith('combat')) return 'Fight the combats and end the turn';
      if (phase.startsWith('shooting')) return 'End the Shooting phase';
      return 'End the Command phase';
    }
    case 'shoot':
      return a.targets?.length ? `Shoot: ${a.targets.map((t) => `${n(t.shooter)} at ${n(t.target)}`).join(', ')}` : 'Shoot: every unit that can, at its closest target';
    case 'character_move': return `Move ${n(a.character)}${a.join ? `, joining ${n(a.join)}` : ''}`;
    case 'home_back': return `Home back: ${n(a.unit)} toward ${n(a.character)}`;
    case 'off_table_return': return `Roll for ${n(a.unit ?? a.character)} to come back onto the table`;
    default: return null;
  }
}

// An action that would give up the move a passed order allows (another
// order, the end of the orders or of the phase): the question the board asks
// before sending it. Holding (a move of none) and the move itself ask nothing.
export function confirmFirst(a, ctx) {
  const p = ctx.game.state?.pending;
  if (!p || !p.units?.length || p.move === 'none' || a.type === 'move') return null;
  const who = p.units.map((u) => nameOf(u, ctx)).join(' + ');
  return `${who} ${p.units.length > 1 ? 'have' : 'has'} a move to make. "${describe(a, ctx, true) ?? a.type}" gives it up. Go on?`;
}

export function filterActions(actions, ctx) {
  // The evades initiative offers: where the engine's evade would go is drawn
  // before one is chosen.
  if (ctx) noteEvades(ctx, actions.filter((a) => a.type === 'initiative' && a.kind === 'evade' && !a.move));
  // Moves are made by dragging; the list keeps the discrete actions.
  return actions.filter((a) => (a.type !== 'move' || a.moves?.length === 0) && a.type !== 'character_move');
}

function noteEvades(ctx, evades) {
  const key = `${ctx.game.id}@${ctx.game.position}`;
  if (ui.evadeKey === key) return;
  ui.evadeKey = key;
  const had = ui.evades.length > 0;
  ui.evades = evades;
  ui.evadePlans = new Map();
  // No evade offered any more: the last position's ghosts go at once.
  if (!evades.length) {
    if (had && !ui.drag) render(document.getElementById('board'), ctx.game.state, ctx);
    return;
  }
  Promise.all(evades.map((a) => ctx.query('evade_plan', { unit: a.unit, enemy: a.target, ...(a.burst_through ? { burst_through: a.burst_through } : {}) })
    .then((p) => ui.evadePlans.set(`${a.unit}>${a.target}`, p)).catch(() => null)))
    .then(() => { if (ui.evadeKey === key && !ui.drag) render(document.getElementById('board'), ctx.game.state, ctx); });
}

// The centre of a formation and the way its first stand faces.
function centreOf(poses) {
  return { x: poses.reduce((a, p) => a + p.x, 0) / poses.length, y: poses.reduce((a, p) => a + p.y, 0) / poses.length };
}
// Compass bearing (0 = +y, clockwise) from a to b, in degrees.
function bearing(a, b) { return (Math.atan2(b.x - a.x, b.y - a.y) * 180) / Math.PI; }
// Poses turned by `deg` (compass, clockwise) about `c`.
function turned(poses, c, deg) {
  const r = (deg * Math.PI) / 180;
  return poses.map((p) => {
    const x = p.x - c.x, y = p.y - c.y;
    return { ...p, x: c.x + x * Math.cos(r) + y * Math.sin(r), y: c.y - x * Math.sin(r) + y * Math.cos(r), facing: (p.facing ?? 0) + deg };
  });
}
// Where the rotate handle of a formation sits: in front of its centre, past
// the unit's label.
export const HANDLE_AHEAD = 9;
function handleAt(poses, depth) {
  const c = centreOf(poses);
  const f = ((poses[0].facing ?? 0) * Math.PI) / 180;
  const reach = depth / 2 + HANDLE_AHEAD;
  return { c, h: { x: c.x + Math.sin(f) * reach, y: c.y + Math.cos(f) * reach } };
}

// --- What the last actions did, on the table and in words -----------------
// After each action the board compares the state before with the state after
// (unit by unit, by id) and draws a trail for every unit whose stands moved,
// from where it stood to where it stands, with the distance its centre moved
// and the kind the log's entries name (advance, charge, evade, drive back,
// retreat, pursuit, fall back, advance after combat). A unit destroyed or
// routed leaves a crossed outline where it last stood. An action of the
// player at the board clears what the earlier actions left; the built-in
// opponent's actions add to it, so its whole turn is on the table when the
// player takes over. Undo, redo and a game opened anew start afresh.
const trails = { game: null, position: -1, state: null, segments: [], gone: [], words: new Map(), by: null };

const MOVE_KIND = { ordered: 'advance', half_pace: 'advance', charge: 'charge', evade: 'evade', dice: 'move' };
const COMBAT_KIND = { retreat: 'retreat', fall_back: 'fall back', pursuit: 'pursuit', advance: 'advance after combat' };
const COMBAT_VERB = { retreat: 'retreat', fall_back: 'fall back', pursuit: 'pursue', advance: 'advance after combat' };
const cm = (d) => round1(d).toFixed(1);

// Takes in the actions played since the board last looked (ctx.log's last
// entries); called by render and by describeEntry, whichever comes first.
export function noteActions(ctx) {
  const g = ctx.game, t = trails;
  if (!g?.state || ctx.replay) return;
  const fresh = () => Object.assign(t, { game: g.id, position: g.position, state: g.state, segments: [], gone: [], words: new Map(), by: null });
  if (t.game !== g.id) { fresh(); return; }
  const n = g.position - t.position;
  if (n === 0) return;
  const log = ctx.log;
  if (n < 0 || log?.game !== g.id || log.position !== g.position || log.entries.length < n) { fresh(); return; }
  const before = t.state;
  // The side that played them: the built-in opponent's actions, and another
  // player's (a friend's at their own board), add to the trails, up to the
  // next side's turn.
  const opponent = playedByOpponent(g, before.side) || !holds(g, before.side);
  if (!opponent || (t.by?.opponent && t.by.side !== before.side)) { t.segments = []; t.gone = []; }
  t.by = { side: before.side, opponent };
  addTrails(t, before, g.state, log.entries.slice(-n));
  Object.assign(t, { position: g.position, state: g.state });
}

function standsOf(state) {
  const m = new Map();
  for (const u of state.units ?? []) if (!u.destroyed && !u.off_table && u.stands?.length) m.set(u.id, u.stands.map((p) => ({ ...p })));
  return m;
}

// The segments of the entries: a move of the Command phase from the move the
// entry carries (so a unit ordered twice has two); the rest (shooting's drive
// backs, combat's moves, a home back) from where the unit was to where the
// state after says it is, named by the entries.
function addTrails(t, before, after, entries) {
  const at = standsOf(before), now = standsOf(after);
  const kinds = new Map();  // unit -> kinds named since its last known place
  const routed = new Set();
  const name = (unit, kind) => { if (!kinds.has(unit)) kinds.set(unit, []); if (!kinds.get(unit).includes(kind)) kinds.get(unit).push(kind); };
  for (const e of entries) {
    if (e.refused) continue;
    const r = e.result ?? {}, a = e.action ?? {};
    const moves = [...(r.moves ?? []), ...(r.move?.unit ? [r.move] : [])];
    for (const m of moves) {
      const from = at.get(m.unit);
      if (!from) continue;
      const to = from.map((p) => ({ ...p }));
      for (const st of m.stands ?? []) if (to[st.stand]) to[st.stand] = { ...st.to };
      const kind = a.type === 'initiative' ? a.kind : MOVE_KIND[m.kind] ?? 'move';
      const d = segment(t, m.unit, from, to, kind, before);
      if (d !== null) t.words.set(`${e.seq}:${m.unit}`, d);
      at.set(m.unit, to);
    }
    for (const db of r.drive_backs ?? []) { name(db.unit, 'drive back'); if (db.routed) routed.add(db.unit); }
    for (const round of r.combats?.rounds ?? []) for (const m of round.moves ?? []) if (COMBAT_KIND[m.kind]) name(m.unit, COMBAT_KIND[m.kind]);
    if (a.type === 'home_back') name(a.unit, 'home back');
  }
  for (const [unit, from] of at) {
    const to = now.get(unit);
    // A unit that lost stands is compared by its centre, and drawn only when the entries say it moved.
    if (to && (to.length === from.length || kinds.has(unit))) { segment(t, unit, from, to, (kinds.get(unit) ?? []).join(', ') || 'move', before); continue; }
    if (to) continue;
    const u = (after.units ?? []).find((x) => x.id === unit);
    const why = routed.has(unit) ? 'routed' : u?.off_table ? 'off the table' : 'destroyed';
    t.gone.push({ unit, side: u?.side ?? 0, stands: from, why });
  }
}

// A trail from `from` to `to` if any stand moved; the distance its centre moved (cm), or null.
function segment(t, unit, from, to, kind, state) {
  const a = centreOf(from), b = centreOf(to);
  if (from.length !== to.length ? Math.hypot(b.x - a.x, b.y - a.y) < 0.05
    : from.every((p, i) => Math.hypot(p.x - to[i].x, p.y - to[i].y) < 0.05 && Math.abs((p.facing ?? 0) - (to[i].facing ?? 0)) < 0.5)) return null;
  const distance = Math.hypot(b.x - a.x, b.y - a.y);
  const side = (state.units ?? []).find((u) => u.id === unit)?.side ?? 0;
  t.segments.push({ unit, side, from: a, to: b, stands: from, kind, distance });
  return distance;
}

const TRAIL_COLOURS = ['#173a78', '#7a1c14'];

// The trails and the crossed outlines, in two layers that take no pointer
// events: the lines and outlines under the stands, the words over them. The
// words are placed with the units' labels (placeLabels): the answer's third
// part is what to place; placeTrailWords moves them into the upper layer.
function drawTrails(ctx, { sx, sy, pts, info }) {
  const under = svg('g', { class: 'trails', 'pointer-events': 'none' });
  const over = svg('g', { class: 'trail-labels', 'pointer-events': 'none' });
  const words = [];
  if (ctx.replay || trails.game !== ctx.game.id || trails.position !== ctx.game.position) return [under, over, words];
  const word = (box, text, attrs) => words.push({ box, text, size: 2.2, below: true, attrs });
  for (const g of trails.gone) {
    const [w, d] = standSize(info.get(g.unit) ?? {});
    const all = g.stands.map((p) => corners(p.x, p.y, p.facing ?? 0, w, d));
    for (const c of all) under.append(svg('polygon', { points: pts(c), fill: '#777', 'fill-opacity': 0.12, stroke: '#555', 'stroke-width': 0.3, 'stroke-dasharray': '0.8 0.5' }));
    const b = boxOf(all.flat().map(([x, y]) => [sx(x), sy(y)]));
    under.append(svg('path', { class: 'gone-mark', 'data-unit': g.unit, 'data-why': g.why, d: `M${b.x0},${b.y0}L${b.x1},${b.y1}M${b.x1},${b.y0}L${b.x0},${b.y1}`, stroke: '#555', 'stroke-width': 0.35, 'stroke-opacity': 0.7, fill: 'none' }));
    word(b, `${nameOf(g.unit, ctx)}: ${g.why}`, { class: 'gone-label', 'data-unit': g.unit, fill: '#444', 'font-style': 'italic' });
  }
  trails.segments.forEach((t, k) => {
    const colour = TRAIL_COLOURS[t.side] ?? '#333';
    const [w, d] = standSize(info.get(t.unit) ?? {});
    for (const p of t.stands) under.append(svg('polygon', { points: pts(corners(p.x, p.y, p.facing ?? 0, w, d)), fill: 'none', stroke: colour, 'stroke-width': 0.2, 'stroke-opacity': 0.45, 'stroke-dasharray': '0.5 0.5' }));
    const x1 = sx(t.from.x), y1 = sy(t.from.y), x2 = sx(t.to.x), y2 = sy(t.to.y);
    // An arrowhead at the end, drawn as a path (no marker ids to clash between boards).
    const len = Math.hypot(x2 - x1, y2 - y1) || 1, ux = (x2 - x1) / len, uy = (y2 - y1) / len, hs = Math.min(1.6, len / 2);
    const head = `M${x2 - ux * hs - uy * hs * 0.6},${y2 - uy * hs + ux * hs * 0.6}L${x2},${y2}L${x2 - ux * hs + uy * hs * 0.6},${y2 - uy * hs - ux * hs * 0.6}`;
    const label = t.distance < 0.05 ? `${t.kind}: turned where it stood` : `${t.kind} ${cm(t.distance)} cm`;
    under.append(svg('g', { class: 'trail', 'data-unit': t.unit, 'data-kind': t.kind, 'data-segment': k, 'data-from': `${t.from.x},${t.from.y}`, 'data-to': `${t.to.x},${t.to.y}` },
      svg('title', {}, `${nameOf(t.unit, ctx)}: ${label}`),
      svg('circle', { cx: x1, cy: y1, r: 0.5, fill: colour, 'fill-opacity': 0.7 }),
      svg('line', { x1, y1, x2, y2, stroke: colour, 'stroke-width': 0.5, 'stroke-opacity': 0.9, 'stroke-dasharray': '1.2 0.6' }),
      svg('path', { d: head, stroke: colour, 'stroke-width': 0.45, fill: 'none' })));
    // The words near the middle of the line.
    const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
    word({ x0: mx - 0.5, x1: mx + 0.5, y0: my - 0.5, y1: my + 0.5 }, label, { class: 'trail-label', 'data-unit': t.unit, 'data-segment': k, fill: colour });
  });
  return [under, over, words];
}

function placeTrailWords(labels, over) {
  over.append(...labels.querySelectorAll('.trail-label, .gone-label'));
}

// The legend's row for what the last actions left on the table.
function trailLegend(legend, y) {
  legend.append(svg('line', { x1: 2, y1: y, x2: 9, y2: y, stroke: TRAIL_COLOURS[0], 'stroke-width': 0.45, 'stroke-dasharray': '1.2 0.6' }),
    svg('text', { x: 11, y: y + 1 }, 'a unit\'s move since your last action, with how far its centre went'),
    svg('circle', { cx: 104, cy: y, r: 1.3, fill: '#ffd54f', stroke: '#6d4c00', 'stroke-width': 0.3 }), svg('text', { x: 107, y: y + 1 }, 'confused'),
    svg('path', { d: `M121,${y - 1.2}L125,${y + 1.2}M125,${y - 1.2}L121,${y + 1.2}`, stroke: '#555', 'stroke-width': 0.35 }), svg('text', { x: 127, y: y + 1 }, 'destroyed or routed'));
}

// A confused unit's mark: a yellow disc with a "?" on its stands.
function confusedMark(u, ps, sx, sy) {
  const c = centreOf(ps);
  return svg('g', { class: 'confused-mark', 'data-unit': u.id, 'pointer-events': 'none' },
    svg('title', {}, 'confused'),
    svg('circle', { cx: sx(c.x), cy: sy(c.y), r: 1.4, fill: '#ffd54f', stroke: '#6d4c00', 'stroke-width': 0.3 }),
    svg('text', { x: sx(c.x), y: sy(c.y) + 0.75, 'font-size': 2.1, 'font-weight': 'bold', 'text-anchor': 'middle', fill: '#4a3300' }, '?'));
}

// A log entry in words, with what it did: the opponent's report and the log.
// Null when there is nothing to add to describe (the caller then uses it).
export function describeEntry(e, ctx) {
  noteActions(ctx);
  const a = e?.action, r = e?.result;
  if (!a || !r || e.refused || r.refused) return null;
  const n = (id) => nameOf(id, ctx);
  const far = (unit) => { const d = trails.words.get(`${e.seq}:${unit}`); return d === undefined ? '' : ` ${cm(d)} cm`; };
  switch (a.type) {
    case 'order': {
      if (!Array.isArray(r.dice)) return null;
      const units = (a.units ?? (a.unit ? [a.unit] : [])).map(n).join(' + ');
      // A failed order may still allow a move (the General's first: half pace).
      const still = r.blunder ? `: ${r.blunder.text}` : !r.passed && r.allows && r.allows !== 'no move' ? `: ${r.allows}` : '';
      return `${n(a.character)} orders ${units}: ${r.passed ? 'passed' : 'failed'} (${r.dice.join(' + ')} = ${r.total}, needed ${r.needed} or less)${still}`;
    }
    case 'initiative': case 'move': {
      const moves = [...(r.moves ?? []), ...(r.move?.unit ? [r.move] : [])];
      if (!moves.length) return r.held ? 'Hold: the ordered units stay where they are' : null;
      return moves.map((m) => {
        const kind = a.type === 'initiative' ? a.kind : MOVE_KIND[m.kind] ?? 'move';
        const d = far(m.unit);
        if (kind === 'charge') return `${n(m.unit)} charges ${n(m.target ?? a.target)}${d ? `,${d}` : ''}`;
        return `${n(m.unit)} ${kind}${d}${m.kind === 'half_pace' ? ' (half pace)' : ''}`;
      }).join('; ') + (a.type === 'initiative' ? ' (initiative)' : '');
    }
    case 'shoot': return describeShooting(r, n);
    case 'end_phase':
      if (r.combats) return describeCombat(r.combats, n);
      return r.recovered?.length ? `End the Command phase: ${r.recovered.map(n).join(', ')} no longer confused` : null;
    case 'home_back': return r.distance !== undefined ? `${n(a.unit)} homes back toward ${n(a.character)}, up to ${r.distance} cm` : null;
    default: return null;
  }
}

const plural = (k, one, many) => `${k} ${k === 1 ? one : many}`;

// "Orc Archers shoot Halberdiers 1: 2 hits, 1 stand lost, driven back 3.5 cm".
function describeShooting(r, n) {
  const targets = [...new Set((r.shots ?? []).map((s) => s.target))];
  if (!targets.length) return 'Shoot: no unit of this side could shoot';
  return targets.map((target) => {
    const shooters = (r.shots ?? []).filter((s) => s.target === target).map((s) => n(s.shooter)).join(' and ');
    const cas = (r.casualties ?? []).find((c) => c.unit === target) ?? {};
    const db = (r.drive_backs ?? []).find((x) => x.unit === target);
    const parts = [plural(cas.unsaved ?? 0, 'hit', 'hits')];
    if (cas.stands_removed) parts.push(`${plural(cas.stands_removed, 'stand', 'stands')} lost`);
    if (cas.destroyed) parts.push('destroyed');
    if (db?.routed) parts.push(`routed (driven back ${db.total} cm)`);
    else if (db && db.moved > 0) parts.push(`driven back ${cm(db.moved)} cm${db.blocked ? ' (cut short)' : ''}`);
    if (db?.confused && !db.routed) parts.push('confused');
    if (db?.left_table) parts.push('off the table');
    return `${shooters} shoot ${n(target)}: ${parts.join(', ')}`;
  }).join('; ') + slainWords(r.slain, n);
}

// "Orc Boyz 1 against Halberdiers 2: Orc Boyz 1 win by 2; Halberdiers 2 retreat 6.0 cm, pursued".
function describeCombat(c, n) {
  if (!c.rounds?.length) return 'Combat: no unit is in contact with an enemy';
  return c.rounds.map((round) => {
    const [s0, s1] = round.sides ?? [];
    const list = (ids) => (ids ?? []).map(n).join(' + ');
    const winner = round.winner === null || round.winner === undefined ? null : round.sides.find((s) => s.side === round.winner);
    const head = `${round.round > 1 ? `(round ${round.round}) ` : ''}${list(s0?.units)} against ${list(s1?.units)}: ` +
      (winner ? `${list(winner.units)} win by ${round.difference}` : 'a draw');
    const lost = (round.casualties ?? []).filter((x) => x.stands_removed > 0 || x.destroyed)
      .map((x) => `${n(x.unit)} ${x.destroyed ? 'destroyed' : `lose ${plural(x.stands_removed, 'stand', 'stands')}`}`);
    const pursued = new Set((round.moves ?? []).filter((m) => m.kind === 'pursuit').map((m) => m.from));
    const moves = (round.moves ?? []).filter((m) => COMBAT_KIND[m.kind] && (m.moved > 0 || m.kind === 'retreat'))
      .map((m) => `${n(m.unit)} ${COMBAT_VERB[m.kind]} ${cm(m.moved)} cm${m.kind === 'retreat' && pursued.has(m.unit) ? ', pursued' : ''}${m.destroyed ? ', destroyed' : ''}`);
    return [head, ...lost, ...moves].join('; ');
  }).join('. ') + slainWords(c.slain, n);
}

// Characters slain with the unit they had joined (docs/rulings.md#warmaster-combat-characters).
function slainWords(slain, n) {
  return slain?.length ? `. ${slain.map(n).join(', ')} ${slain.length === 1 ? 'is' : 'are'} slain with their unit` : '';
}

export function render(root, state, ctx) {
  noteActions(ctx);
  const scenario = ctx.game.scenario;
  if (ui.gameId !== ctx.game.id) {
    Object.assign(ui, { gameId: ctx.game.id, selected: [], reach: null, drag: null, bf: null, reform: null, formation: null });
    // The battlefield with troops resolved (each unit's type and stand size):
    // the scenario may only name a troop from its army list.
    const id = ctx.game.id;
    ctx.query('battlefield', {}).then((bf) => {
      if (ui.gameId !== id) return;
      ui.bf = bf;
      render(root, ctx.replay ? ctx.replay.state : ctx.game.state, ctx);
    }).catch((e) => ctx.showError(e));
    // Units deployed in no formation (docs/rulings.md#warmaster-deployment):
    // shown above the controls until the game changes.
    ui.deployment = [];
    ctx.query('deployment', {}).then((d) => {
      if (ui.gameId !== id) return;
      ui.deployment = d.warnings;
      if (d.warnings.length) ctx.board?.controls();
    }).catch((e) => ctx.showError(e));
  }
  const W = scenario.table?.width ?? 180, H = scenario.table?.height ?? 120;
  const margin = 18;
  const sx = (x) => x, sy = (y) => H - y;
  const pts = (ps) => ps.map(([x, y]) => `${sx(x).toFixed(2)},${sy(y).toFixed(2)}`).join(' ');
  const info = scenarioUnits(ui.bf ?? scenario);
  ui.info = info;

  // The whole table, or the part zoomed in on (ui.view: buttons, pinch, pan).
  ui.full = { x: -2, y: -2, w: W + 4, h: H + margin + 7 };
  const v = ui.view ?? ui.full;
  const s = svg('svg', { viewBox: `${v.x} ${v.y} ${v.w} ${v.h}`, role: 'img', 'aria-label': 'Warmaster table', id: 'wm-svg' });
  s.append(svg('rect', { x: 0, y: 0, width: W, height: H, fill: '#e8eddc', stroke: '#6b7a55', 'stroke-width': 0.4 }));
  // A 10 cm grid, faint, so distances can be judged by eye.
  const grid = svg('g', { stroke: '#d3dbc2', 'stroke-width': 0.15 });
  for (let x = 10; x < W; x += 10) grid.append(svg('line', { x1: x, y1: 0, x2: x, y2: H }));
  for (let y = 10; y < H; y += 10) grid.append(svg('line', { x1: 0, y1: sy(y), x2: W, y2: sy(y) }));
  s.append(grid);

  const terrain = svg('g', { class: 'terrain' });
  const terrainLabels = [], terrainLabelBoxes = [];
  for (const t of scenario.terrain ?? []) {
    const [fill, stroke] = TERRAIN_STYLE[t.kind] ?? ['#ccc', '#888'];
    const title = svg('title', {}, `${t.name ?? t.id} (${t.kind.replaceAll('_', ' ')})`);
    if (t.polygon) terrain.append(svg('polygon', { points: pts(t.polygon), fill, stroke, 'stroke-width': 0.3, 'fill-opacity': 0.85 }, title));
    if (t.polygon) {
      const cx = t.polygon.reduce((a, p) => a + p[0], 0) / t.polygon.length, cy = t.polygon.reduce((a, p) => a + p[1], 0) / t.polygon.length;
      const name = (t.name ?? t.kind).replaceAll('_', ' ');
      terrainLabels.push(svg('text', { x: sx(cx), y: sy(cy) + 0.8, 'font-size': 2.2, 'font-style': 'italic', 'text-anchor': 'middle', fill: '#3b3b2b', 'fill-opacity': 0.8, 'pointer-events': 'none' }, name));
      const tw = name.length * 2.2 * 0.56;
      terrainLabelBoxes.push({ x0: sx(cx) - tw / 2, x1: sx(cx) + tw / 2, y0: sy(cy) - 1.4, y1: sy(cy) + 1.2 });
    } else if (t.line) terrain.append(svg('polyline', { points: pts(t.line), fill: 'none', stroke: fill === 'none' ? stroke : fill, 'stroke-width': t.width ?? 1, 'stroke-linecap': 'butt' }, title));
  }
  terrain.append(...terrainLabels);
  s.append(terrain);

  // The reach of the selected unit, under the stands.
  if (ui.reach && !ctx.replay && !ctx.game.terminal) {
    const d = ui.reach.boundary.map((ring) => 'M' + ring.map(([x, y]) => `${sx(x).toFixed(2)},${sy(y).toFixed(2)}`).join('L') + 'Z').join(' ');
    s.append(svg('path', { d, fill: '#f5c542', 'fill-opacity': 0.35, stroke: '#b8860b', 'stroke-width': 0.3, 'fill-rule': 'evenodd', class: 'reach', 'data-unit': ui.reach.mover }));
  }

  const units = svg('g', { class: 'units' });
  // Touch targets (see below), in table units: 24 px at the width the board is drawn.
  const hits = svg('g', { class: 'hits' });
  const minTouch = (26 * v.w) / Math.max(200, root.clientWidth || 800);  // 26: a margin over 24 for borders
  const labels = svg('g', { class: 'labels', 'pointer-events': 'none' });
  // Stand, character and terrain-name boxes, and the labels to place among them (placeLabels).
  const obstacles = [...terrainLabelBoxes], wanted = [];
  for (const u of state.units ?? []) {
    if (u.destroyed || u.off_table || !u.stands?.length) continue;
    const meta = info.get(u.id) ?? {};
    const [w, d] = standSize(meta);
    const colour = SIDE_COLOURS[u.side] ?? '#555';
    const selected = ui.selected.includes(u.id);
    // A drag, or a re-form being set out stand by stand, is drawn where it would put the stands.
    const drag = ui.drag && ui.drag.unit === u.id ? ui.drag : brigadeMate(u.id) ?? (ui.reform?.unit === u.id ? ui.reform : null);
    const g = svg('g', { class: 'unit' + (drag ? (drag.legal === true ? ' legal-pose' : drag.legal === false ? ' illegal-pose' : '') : ''), 'data-unit': u.id });
    // A touch target at least 24 px each way at the zoom shown, under the
    // stands (which take a touch first): a small stand on a phone can be grabbed.
    {
      const ps0 = drag ? drag.poses : u.stands;
      const b = boxOf(ps0.flatMap((p) => corners(p.x, p.y, p.facing ?? 0, w, d)).map(([x, y]) => [sx(x), sy(y)]));
      const bw = b.x1 - b.x0, bh = b.y1 - b.y0;
      const gw = Math.max(0, minTouch - bw) / 2, gh = Math.max(0, minTouch - bh) / 2;
      hits.append(svg('rect', { class: 'hit', 'data-unit': u.id, x: b.x0 - gw, y: b.y0 - gh, width: bw + 2 * gw, height: bh + 2 * gh, fill: 'transparent' }));
    }
    u.stands.forEach((st, i) => {
      const p = drag ? drag.poses[i] : st;
      const c = corners(p.x, p.y, p.facing ?? 0, w, d);
      g.append(svg('polygon', { class: 'stand', 'data-unit': u.id, 'data-stand': i, points: pts(c), fill: colour, 'fill-opacity': u.confused ? 0.45 : 0.8, stroke: selected ? '#111' : '#fff', 'stroke-width': selected ? 0.5 : 0.2 },
        svg('title', {}, `${meta.name ?? u.id} (${u.id}), stand ${i}`)));
      g.append(svg('line', { x1: sx(c[0][0]), y1: sy(c[0][1]), x2: sx(c[1][0]), y2: sy(c[1][1]), stroke: '#111', 'stroke-width': 0.45, 'pointer-events': 'none' }));
    });
    if (u.confused) g.append(confusedMark(u, drag ? drag.poses : u.stands, sx, sy));
    units.append(g);
    const ps = drag ? drag.poses : u.stands;
    const cx = ps.reduce((a, p) => a + p.x, 0) / ps.length, cy = Math.max(...ps.map((p) => p.y));
    const tags = [u.confused ? 'confused' : '', u.stands_lost > 0 ? `${plural(u.stands_lost, 'stand', 'stands')} lost` : '', u.engaged ? 'engaged' : '', u.finished ? 'done' : ''].filter(Boolean).join(', ');
    const box = boxOf(ps.flatMap((p) => corners(p.x, p.y, p.facing ?? 0, w, d)).map(([x, y]) => [sx(x), sy(y)]));
    obstacles.push(box);
    wanted.push({ box, text: nameOf(u.id, ctx) + (tags ? ` (${tags})` : ''), size: 2.6, attrs: { fill: '#111', 'data-label': u.id } });
  }
  for (const c of state.characters ?? []) {
    if (c.lost && !c.returns_next_turn) continue;
    const p = ui.drag && ui.drag.character === c.id ? ui.drag.poses[0] : { x: c.pose.x, y: c.pose.y };
    const colour = SIDE_COLOURS[c.side] ?? '#555';
    const meta = info.get(c.id) ?? {};
    const legal = ui.drag && ui.drag.character === c.id ? ui.drag.legal : null;
    units.append(svg('circle', { class: 'stand character', 'data-character': c.id, cx: sx(p.x), cy: sy(p.y), r: 1.5, fill: '#fff', stroke: legal === false ? '#c62828' : legal === true ? '#1a7f37' : colour, 'stroke-width': 0.7 },
      svg('title', {}, `${meta.name ?? c.id} (${c.id}), ${c.role}, Command ${meta.command ?? '?'}${meta.attacks ? `, Attacks +${meta.attacks}` : ''}${c.joined_unit ? `, with ${nameOf(c.joined_unit, ctx)}` : ''}`)));
    const box = { x0: sx(p.x) - 1.6, x1: sx(p.x) + 1.6, y0: sy(p.y) - 1.6, y1: sy(p.y) + 1.6 };
    obstacles.push(box);
    wanted.push({ box, text: nameOf(c.id, ctx), size: 2.2, below: true, attrs: { fill: colour, 'data-label': c.id } });
  }
  const [trailLines, trailWords, trailWanted] = drawTrails(ctx, { sx, sy, pts, info });
  wanted.push(...trailWanted);
  for (const l of placeLabels(wanted, obstacles, { x0: 0, x1: W, y0: 0, y1: H }))
    labels.append(svg('text', { x: l.x, y: l.y, 'font-size': l.size, 'text-anchor': 'middle', stroke: '#fff', 'stroke-width': 0.5, 'paint-order': 'stroke', ...l.attrs }, l.text));
  // The engine's evade for each evade initiative offers: dashed stands where
  // it would end, and the way there.
  const ghosts = svg('g', { class: 'evade-plans', 'pointer-events': 'none' });
  if (!ctx.replay && !ctx.game.terminal) for (const a of ui.evades) {
    const plan = ui.evadePlans.get(`${a.unit}>${a.target}`);
    const u = (state.units ?? []).find((x) => x.id === a.unit);
    if (!plan || !u) continue;
    const [w, d] = standSize(info.get(u.id) ?? {});
    if (!plan.possible) continue;
    for (const st of plan.stands) {
      const c = corners(st.to.x, st.to.y, st.to.facing ?? 0, w, d);
      ghosts.append(svg('polygon', { class: 'evade-ghost', 'data-unit': a.unit, 'data-enemy': a.target, points: pts(c), fill: 'none', stroke: '#6a1b9a', 'stroke-width': 0.4, 'stroke-dasharray': '1 0.7' }));
    }
    const from = centreOf(u.stands), to = centreOf(plan.stands.map((st) => st.to));
    ghosts.append(svg('line', { x1: sx(from.x), y1: sy(from.y), x2: sx(to.x), y2: sy(to.y), stroke: '#6a1b9a', 'stroke-width': 0.3, 'stroke-dasharray': '1 0.7' }),
      svg('text', { x: sx(to.x), y: sy(to.y) + 4.2, 'font-size': 2.2, 'text-anchor': 'middle', fill: '#6a1b9a', stroke: '#fff', 'stroke-width': 0.5, 'paint-order': 'stroke' },
        `evade from ${nameOf(a.target, ctx)}: ${plan.distance} cm`));
  }
  // A drag of an ordered unit near an enemy: the charge the release would
  // make (slid on into contact), dashed, green when legal.
  const charge = ui.drag?.charge;
  if (charge && !ctx.replay) {
    const u = (state.units ?? []).find((x) => x.id === ui.drag.unit);
    const [w, d] = standSize(info.get(u?.id) ?? {});
    const colour = charge.legal ? '#1a7f37' : '#c62828';
    for (const st of charge.move.stands) {
      const c = corners(st.to.x, st.to.y, st.to.facing ?? 0, w, d);
      ghosts.append(svg('polygon', { class: 'charge-ghost', 'data-unit': ui.drag.unit, 'data-target': charge.target, points: pts(c), fill: 'none', stroke: colour, 'stroke-width': 0.5, 'stroke-dasharray': '1 0.5' }));
    }
    const to = centreOf(charge.move.stands.map((st) => st.to));
    ghosts.append(svg('text', { x: sx(to.x), y: sy(to.y) - 3, 'font-size': 2.4, 'text-anchor': 'middle', fill: colour, stroke: '#fff', 'stroke-width': 0.5, 'paint-order': 'stroke' },
      charge.legal ? `release to charge ${nameOf(charge.target, ctx)}` : `no charge on ${nameOf(charge.target, ctx)}`));
  }
  // The rotate handle of the selected unit: drag it round to turn the unit
  // (none while another player's side is to play: nothing can be dragged).
  const one = ui.selected.length === 1 ? (state.units ?? []).find((x) => x.id === ui.selected[0] && x.stands?.length && !x.destroyed && !x.off_table) : null;
  const handle = svg('g', { class: 'rotate' });
  if (one && !ctx.replay && !ctx.game.terminal && !ui.formation && mayPlay()) {
    const poses = ui.drag && ui.drag.unit === one.id ? ui.drag.poses : one.stands;
    const [, d] = standSize(info.get(one.id) ?? {});
    const { c, h } = handleAt(poses, d);
    handle.append(svg('line', { x1: sx(c.x), y1: sy(c.y), x2: sx(h.x), y2: sy(h.y), stroke: '#111', 'stroke-width': 0.25, 'stroke-dasharray': '0.6 0.4', 'pointer-events': 'none' }),
      svg('circle', { class: 'rotate-handle', 'data-rotate': one.id, cx: sx(h.x), cy: sy(h.y), r: 1.6, fill: '#fff', stroke: '#111', 'stroke-width': 0.4 },
        svg('title', {}, `Drag round to turn ${one.id}`)),
      svg('path', { d: `M${sx(h.x) - 0.9},${sy(h.y) + 0.3} A0.9,0.9 0 1 1 ${sx(h.x) + 0.6},${sy(h.y) + 0.7}`, fill: 'none', stroke: '#111', 'stroke-width': 0.3, 'pointer-events': 'none' }));
  }
  placeTrailWords(labels, trailWords);
  s.append(trailLines, hits, ghosts, units, formationGhosts(info, pts, sx, sy, ctx), labels, trailWords, handle);

  // Scale and legend below the table.
  const y0 = H + 4;
  const legend = svg('g', { class: 'legend', 'font-size': 2.6 });
  legend.append(svg('line', { x1: 2, y1: y0, x2: 12, y2: y0, stroke: '#111', 'stroke-width': 0.5 }),
    svg('line', { x1: 2, y1: y0 - 1, x2: 2, y2: y0 + 1, stroke: '#111', 'stroke-width': 0.4 }),
    svg('line', { x1: 12, y1: y0 - 1, x2: 12, y2: y0 + 1, stroke: '#111', 'stroke-width': 0.4 }),
    svg('text', { x: 14, y: y0 + 1 }, '10 cm (grid 10 cm)'));
  let lx = 45;
  ctx.game.players.forEach((name, side) => {
    legend.append(svg('rect', { x: lx, y: y0 - 1.5, width: 4, height: 3, fill: SIDE_COLOURS[side] }), svg('text', { x: lx + 5, y: y0 + 1 }, name));
    lx += 8 + name.length * 1.5;
  });
  legend.append(svg('rect', { x: lx, y: y0 - 1.5, width: 4, height: 3, fill: '#f5c542', 'fill-opacity': 0.5, stroke: '#b8860b', 'stroke-width': 0.3 }),
    svg('text', { x: lx + 5, y: y0 + 1 }, 'reach of the selected unit'));
  // Second row: what the marks mean.
  const y1 = y0 + 6;
  legend.append(svg('rect', { x: 2, y: y1 - 1.5, width: 4, height: 2, fill: '#888' }), svg('line', { x1: 2, y1: y1 - 1.5, x2: 6, y2: y1 - 1.5, stroke: '#111', 'stroke-width': 0.45 }),
    svg('text', { x: 7, y: y1 + 1 }, 'stand, front edge dark'),
    svg('circle', { cx: 47, cy: y1, r: 1.5, fill: '#fff', stroke: '#555', 'stroke-width': 0.7 }), svg('text', { x: 50, y: y1 + 1 }, 'character'),
    svg('text', { x: 70, y: y1 + 1 }, 'While dragging: green outline legal, red illegal (the reason is on the right).'));
  const y2 = y1 + 5;
  legend.append(svg('rect', { x: 2, y: y2 - 1.5, width: 4, height: 2, fill: 'none', stroke: '#6a1b9a', 'stroke-width': 0.4, 'stroke-dasharray': '1 0.7' }),
    svg('text', { x: 7, y: y2 + 1 }, "the engine's evade, where initiative offers one"),
    svg('circle', { cx: 72, cy: y2, r: 1.4, fill: '#fff', stroke: '#111', 'stroke-width': 0.4 }),
    svg('text', { x: 75, y: y2 + 1 }, 'rotate handle: drag it round to turn the selected unit'));
  trailLegend(legend, y2 + 5);
  s.append(legend);

  root.replaceChildren(s);
  attachZoom(s, root, state, ctx);
  if (!ctx.replay && !ctx.game.terminal && mayPlay()) attachPointer(s, state, ctx, info, H);
}

// Zoom and pan, for small screens above all: the + and − buttons, two
// fingers pinching, and one finger (or the mouse) dragging the empty table
// while zoomed in. The view is the board's (ui.view), kept from draw to draw.
function attachZoom(s, root, state, ctx) {
  const full = ui.full;
  const clamp = (v) => {
    const w = Math.min(full.w, Math.max(full.w / 12, v.w)), h = (w * full.h) / full.w;
    const x = Math.min(full.x + full.w - w, Math.max(full.x, v.x)), y = Math.min(full.y + full.h - h, Math.max(full.y, v.y));
    return { x, y, w, h };
  };
  const setView = (v) => {
    const c = clamp(v);
    ui.view = c.w >= full.w - 1e-6 ? null : c;
    s.setAttribute('viewBox', `${c.x} ${c.y} ${c.w} ${c.h}`);
  };
  const current = () => ui.view ?? full;
  // Zoom by `k` (below 1 is in) keeping the table point (cx, cy) where it is on screen.
  const zoomAbout = (k, cx, cy, from = current()) => setView({ x: cx - (cx - from.x) * k, y: cy - (cy - from.y) * k, w: from.w * k, h: from.h * k });
  const centre = () => { const v = current(); return [v.x + v.w / 2, v.y + v.h / 2]; };
  const toView = (clientX, clientY, v = current()) => {
    const r = s.getBoundingClientRect();
    return [v.x + ((clientX - r.left) / r.width) * v.w, v.y + ((clientY - r.top) / r.height) * v.h];
  };
  root.append(el('div', { class: 'zoom', role: 'group', 'aria-label': 'Zoom the table' },
    el('button', { type: 'button', id: 'zoom-in', 'aria-label': 'Zoom in', title: 'Zoom in', onclick: () => zoomAbout(1 / 1.5, ...centre()) }, '+'),
    el('button', { type: 'button', id: 'zoom-out', 'aria-label': 'Zoom out', title: 'Zoom out', onclick: () => zoomAbout(1.5, ...centre()) }, '−'),
    el('button', { type: 'button', id: 'zoom-fit', 'aria-label': 'The whole table', title: 'The whole table', onclick: () => setView(full) }, 'Fit')));
  const pointers = new Map();
  let pan = null, pinch = null;
  const distance = () => { const [a, b] = [...pointers.values()]; return Math.hypot(a.x - b.x, a.y - b.y); };
  s.addEventListener('pointerdown', (ev) => {
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (pointers.size === 2) {
      // Two fingers: a pinch, never a move (a unit drag begun by the first finger is dropped).
      if (ui.drag) { ui.drag = null; render(root, state, ctx); return; }
      const [a, b] = [...pointers.values()];
      pinch = { d0: distance(), v0: current(), mid: toView((a.x + b.x) / 2, (a.y + b.y) / 2) };
      pan = null;
      return;
    }
    const t = ev.target.dataset ?? {};
    // The pan keeps the pointer: released off the table (over the zoom
    // buttons, say), the pan still ends, and the next move of the mouse does not pan.
    if (!t.unit && !t.character && !t.rotate && !ui.formation) { pan = { x: ev.clientX, y: ev.clientY, v0: current() }; s.setPointerCapture?.(ev.pointerId); }
  });
  s.addEventListener('pointermove', (ev) => {
    if (!pointers.has(ev.pointerId)) return;
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (pinch && pointers.size === 2) { zoomAbout(pinch.d0 / Math.max(1, distance()), ...pinch.mid, pinch.v0); return; }
    if (pan && ui.view) {
      const r = s.getBoundingClientRect();
      const k = pan.v0.w / r.width;
      if (Math.hypot(ev.clientX - pan.x, ev.clientY - pan.y) > 4) ui.panned = true;
      setView({ ...pan.v0, x: pan.v0.x - (ev.clientX - pan.x) * k, y: pan.v0.y - (ev.clientY - pan.y) * k });
    }
  });
  const up = (ev) => {
    pointers.delete(ev.pointerId);
    if (pointers.size < 2) pinch = null;
    if (pointers.size === 0) pan = null;
  };
  s.addEventListener('pointerup', up);
  s.addEventListener('pointercancel', up);
}

function toTable(s, ev, H) {
  const pt = s.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(s.getScreenCTM().inverse());
  return { x: p.x, y: H - p.y };
}

function round1(v) { return Math.round(v * 10) / 10; }

// A brigade dragged as one body: the other units of the order move with the
// one dragged, by the same step (brigadeDrag), and are drawn where they would go.
function brigadeDrag(state, unit) {
  const p = pendingFor(state, unit);
  if (!p || p.move === 'none' || p.units.length < 2) return undefined;
  return p.units.filter((id) => id !== unit).map((id) => {
    const stands = (state.units ?? []).find((x) => x.id === id)?.stands ?? [];
    return { unit: id, origin: stands.map((q) => ({ ...q })), poses: stands.map((q) => ({ ...q })) };
  });
}
function brigadeMate(unit) {
  const mate = ui.drag?.mates?.find((m) => m.unit === unit);
  return mate ? { poses: mate.poses, legal: ui.drag.legal } : null;
}

function pendingFor(state, unit) {
  const p = state.pending;
  return p && p.units?.includes(unit) ? p : null;
}

// The move a drag makes, as an action when an order is pending for the unit,
// or as the movement rules' check when not (it still needs an order).
function dragRequest(drag, state) {
  if (drag.character) {
    const join = joinTarget(drag, state);
    return { action: { type: 'character_move', character: drag.character, stands: [{ to: { x: round1(drag.poses[0].x), y: round1(drag.poses[0].y) } }], ...(join ? { join } : {}) } };
  }
  const standsOf = (poses) => poses.map((p, i) => ({ stand: i, to: { x: round1(p.x), y: round1(p.y), facing: round1(((p.facing % 360) + 360) % 360) } }));
  const stands = standsOf(drag.poses);
  const pending = pendingFor(state, drag.unit);
  const mates = (drag.mates ?? []).map((m) => ({ unit: m.unit, stands: standsOf(m.poses) }));
  if (pending && pending.move !== 'none') return { action: { type: 'move', moves: [{ unit: drag.unit, stands }, ...mates] } };
  return { check: { unit: drag.unit, kind: 'ordered', stands } };
}

// How close (cm, stand centre to stand centre, less both half diagonals) a
// dragged unit must come to an enemy for the board to offer a charge on it.
const kChargeOffer = 3;

// The enemy unit nearest the dragged stands, if one is within kChargeOffer.
function enemyNear(drag, state) {
  const own = (state.units ?? []).find((u) => u.id === drag.unit);
  if (!own) return null;
  const reach = (u) => { const [w, d] = standSize(ui.info?.get(u.id) ?? {}); return Math.hypot(w, d) / 2; };
  const ownReach = reach(own);
  let best = null;
  for (const e of state.units ?? []) {
    if (e.side === own.side || !e.stands?.length || e.off_table || e.destroyed) continue;
    const gap = Math.min(...drag.poses.flatMap((p) => e.stands.map((q) => Math.hypot(p.x - q.x, p.y - q.y)))) - ownReach - reach(e);
    if (gap <= kChargeOffer && (!best || gap < best.gap)) best = { id: e.id, gap };
  }
  return best?.id ?? null;
}

// The charge a release would make: the engine's charge_plan, lined up edge
// to edge on the edge nearest where the unit is dragged, with the verdict
// applying it would give (one request).
async function planCharge(ctx, drag, target) {
  const plan = await ctx.query('charge_plan', { unit: drag.unit, target, stands: drag.poses.map((p) => ({ x: round1(p.x), y: round1(p.y), facing: round1(((p.facing % 360) + 360) % 360) })) });
  const verdict = { legal: plan.legal, violations: plan.violations };
  return { target, move: plan.move, slide: plan.slide, linedUp: plan.lined_up, action: { type: 'move', moves: [plan.move] }, legal: plan.legal, verdict };
}

async function checkDrag(ctx, state) {
  const drag = ui.drag;
  if (!drag || drag.inflight) return;
  drag.inflight = true;
  const key = JSON.stringify(drag.poses);
  try {
    const req = dragRequest(drag, state);
    // An ordered unit dragged up to an enemy: the charge is offered instead
    // of the plain move (which the rules refuse: a move into contact is a charge).
    const target = req.action && !drag.character && !drag.rotate && drag.single === undefined ? enemyNear(drag, state) : null;
    const charge = target ? await planCharge(ctx, drag, target) : null;
    const v = charge ? charge.verdict : req.action ? await ctx.validate(req.action) : await ctx.query('check', { move: req.check });
    if (ui.drag !== drag) return;
    const hadCharge = !!drag.charge;
    drag.charge = charge;
    drag.legal = v.legal;
    drag.checkedKey = key;
    drag.request = charge ? { action: charge.action } : req;
    const label = charge ? `${nameOf(drag.unit, ctx)} charges ${nameOf(target, ctx)} (${charge.linedUp ? 'lined up edge to edge' : `${charge.slide} cm on into contact`})` : req.action ? describeAction(req.action) : `${drag.unit}: the movement rules alone (give it an order to move it)`;
    await ctx.showVerdict(v, label);
    // A charge offered, or one no longer offered, changes the ghost: draw anew; else recolour.
    if (charge || hadCharge) render(document.getElementById('wm-svg').parentNode, state, ctx);
    else paintDrag(drag);
  } catch (e) { ctx.showError(e); } finally {
    drag.inflight = false;
    const stale = JSON.stringify(drag.poses) !== key;
    // The verdict on the pose shown, for tests and the latency bench: checking, legal, illegal, charge or no-charge.
    if (ui.drag === drag) document.body.dataset.drag = stale ? 'checking' : drag.charge ? (drag.charge.legal ? 'charge' : 'no-charge') : drag.legal ? 'legal' : 'illegal';
    if (ui.drag === drag && stale) checkDrag(ctx, state);
  }
}

function paintDrag(drag) {
  const s = document.getElementById('wm-svg');
  if (!s) return;
  const sel = drag.character ? `[data-character="${drag.character}"]` : `g.unit[data-unit="${drag.unit}"]`;
  const g = s.querySelector(sel);
  if (!g) return;
  if (drag.character) g.setAttribute('stroke', drag.legal ? '#1a7f37' : '#c62828');
  else g.setAttribute('class', 'unit ' + (drag.legal ? 'legal-pose' : 'illegal-pose'));
  s.dataset.dragLegal = String(drag.legal);
}

function attachPointer(s, state, ctx, info, H) {
  const byId = new Map((state.units ?? []).map((u) => [u.id, u]));
  const redraw = () => render(s.parentNode, state, ctx);
  const moveDrag = (to) => {
    const d = ui.drag;
    d.last = to;
    const dx = to.x - d.grab.x, dy = to.y - d.grab.y;
    // Stand by stand (a re-form): only the stand grabbed moves.
    d.poses = d.start.map((p, i) => (d.single === undefined || d.single === i ? { ...p, x: p.x + dx, y: p.y + dy } : { ...p }));
    for (const m of d.mates ?? []) m.poses = m.origin.map((p) => ({ ...p, x: p.x + dx, y: p.y + dy }));
    d.moved = true;
  };
  s.addEventListener('pointerdown', async (ev) => {
    if (formationPointer('down', s, ev, state, ctx, H)) return;
    const t = ev.target;
    const to = toTable(s, ev, H);
    if (t.dataset?.rotate) {
      const u = byId.get(t.dataset.rotate);
      const start = u.stands.map((p) => ({ ...p }));
      const c = centreOf(start);
      ui.drag = { unit: u.id, rotate: true, centre: c, from: bearing(c, to), grab: to, start, origin: start, poses: start.map((p) => ({ ...p })), legal: null, moved: false };
      s.setPointerCapture(ev.pointerId);
      return;
    }
    if (t.dataset?.character) {
      const c = state.characters.find((x) => x.id === t.dataset.character);
      ui.drag = { character: c.id, grab: to, start: [{ x: c.pose.x, y: c.pose.y }], poses: [{ x: c.pose.x, y: c.pose.y }], legal: null };
      s.setPointerCapture(ev.pointerId);
      return;
    }
    const unit = t.dataset?.unit;
    // The empty table: a click deselects (on release, since a drag there pans the view).
    if (!unit) { ui.emptyDown = true; ui.panned = false; return; }
    if (addsToSelection(ev)) {
      ui.selected = ui.selected.includes(unit) ? ui.selected.filter((u) => u !== unit) : [...ui.selected, unit];
    } else if (!ui.selected.includes(unit) || ui.selected.length > 1) {
      ui.selected = [unit];
    }
    const u = byId.get(unit);
    const pending = pendingFor(state, unit);
    if (ui.standByStand && pending && pending.move !== 'none' && t.dataset.stand !== undefined) {
      // Re-forming: the stand grabbed moves; the others stay where the re-form has put them.
      const from = ui.reform?.unit === unit ? ui.reform.poses : u.stands;
      ui.drag = { unit, single: Number(t.dataset.stand), grab: to, start: from.map((p) => ({ ...p })), origin: u.stands.map((p) => ({ ...p })), poses: from.map((p) => ({ ...p })), legal: null, moved: false };
      s.setPointerCapture(ev.pointerId);
      ctx.board.controls?.();
      return;
    }
    ui.drag = { unit, grab: to, start: u.stands.map((p) => ({ ...p })), origin: u.stands.map((p) => ({ ...p })), poses: u.stands.map((p) => ({ ...p })), legal: null, moved: false, mates: brigadeDrag(state, unit) };
    s.setPointerCapture(ev.pointerId);
    if (!ui.reach || ui.reach.mover !== unit) showReach(ctx, state, unit);
    ctx.board.controls?.();
  });
  s.addEventListener('pointermove', (ev) => {
    if (formationPointer('move', s, ev, state, ctx, H)) return;
    if (!ui.drag) return;
    const t0 = performance.now();
    if (ui.drag.rotate) {
      const d = ui.drag;
      let deg = Math.round(bearing(d.centre, toTable(s, ev, H)) - d.from);
      if (deg > 180) deg -= 360;
      if (deg < -180) deg += 360;
      d.poses = turned(d.start, d.centre, deg);
      d.turn = deg;
      d.moved = deg !== 0;
      document.getElementById('board').dataset.turn = String(deg);
    } else moveDrag(toTable(s, ev, H));
    redraw();
    document.body.dataset.drag = 'checking';
    // From the pointer move to the table (reach shading included) drawn
    // anew; the browser tests report it.
    const board = document.getElementById('board');
    const times = (board.dataset.redrawMs ?? '').split(',').filter(Boolean);
    times.push((performance.now() - t0).toFixed(2));
    board.dataset.redrawMs = times.slice(-50).join(',');
    checkDrag(ctx, state);
  });
  s.addEventListener('wheel', (ev) => {
    if (!ui.drag || ui.drag.character || ui.drag.rotate) return;
    ev.preventDefault();
    const d = ui.drag;
    const step = ev.deltaY > 0 ? 5 : -5;
    // Stand by stand, the grabbed stand turns about its own centre.
    const turning = d.single === undefined ? d.poses : [d.poses[d.single]];
    const cx = turning.reduce((a, p) => a + p.x, 0) / turning.length, cy = turning.reduce((a, p) => a + p.y, 0) / turning.length;
    const r = (step * Math.PI) / 180;
    // Compass turn clockwise by `step`: rotate positions the same way about the centre.
    const rot = (p) => {
      const x = p.x - cx, y = p.y - cy;
      return { x: cx + x * Math.cos(r) + y * Math.sin(r), y: cy - x * Math.sin(r) + y * Math.cos(r), facing: (p.facing ?? 0) + step };
    };
    d.poses = d.poses.map((p, i) => (d.single === undefined || d.single === i ? rot(p) : p));
    // Later pointer moves translate the turned formation from here.
    d.start = d.poses.map((p) => ({ ...p }));
    for (const m of d.mates ?? []) m.origin = m.poses.map((p) => ({ ...p }));
    d.grab = d.last ?? d.grab;
    d.moved = true;
    redraw();
    checkDrag(ctx, state);
  }, { passive: false });
  const finish = async () => {
    if (ui.emptyDown) {
      ui.emptyDown = false;
      if (!ui.panned) { ui.selected = []; ui.reach = null; redraw(); ctx.refresh(false); }
      return;
    }
    const d = ui.drag;
    if (!d) return;
    // A unit dragged out and back (every stand within 1 mm and 1 degree of
    // where it began) has not moved: nothing is sent, and its order stands.
    const still = !d.character && d.origin && d.poses.every((p, i) => Math.hypot(p.x - d.origin[i].x, p.y - d.origin[i].y) < 0.1 &&
      Math.abs((((p.facing ?? 0) - (d.origin[i].facing ?? 0)) % 360 + 540) % 360 - 180) < 1);
    if (!d.moved || still) {
      ui.drag = null; redraw(); renderControls(ctx);
      if (d.moved) ctx.message(el('div', { class: 'muted', id: 'no-move' }, `${nameOf(d.unit, ctx)} is back where it began: no move is made (a move of 0 cm is no move).`));
      return;
    }
    while (d.inflight) await new Promise((r) => setTimeout(r, 10));
    if (d.checkedKey !== JSON.stringify(d.poses)) { d.inflight = false; await checkDrag(ctx, state); }
    ui.drag = null;
    if (d.single !== undefined) {
      // A re-form is made with "Make this move", once every stand is placed.
      ui.reform = { unit: d.unit, poses: d.poses, legal: d.legal, action: d.request?.action };
      redraw();
      renderControls(ctx);
      return;
    }
    if (d.legal && d.request?.action) {
      ui.reach = null;
      await ctx.apply(d.request.action);
    } else {
      redraw();  // back where it was; the reason stays shown
    }
  };
  s.addEventListener('pointerup', (ev) => { if (!formationPointer('up', s, ev, state, ctx, H)) finish(); });
  s.addEventListener('pointercancel', (ev) => { if (!formationPointer('up', s, ev, state, ctx, H)) { ui.drag = null; redraw(); } });
}

async function showReach(ctx, state, unit) {
  const pending = pendingFor(state, unit);
  const kind = pending && ['ordered', 'half_pace'].includes(pending.move) ? pending.move : 'ordered';
  try {
    const t0 = performance.now();
    const r = await ctx.query('reach', { unit, kind, cell: 1 });
    ui.reach = r;
    ui.reachMs = performance.now() - t0;
    document.getElementById('board').dataset.reachMs = ui.reachMs.toFixed(1);
    if (!ui.drag || ui.drag.unit === unit) render(document.getElementById('board'), state, ctx);
  } catch (e) { ctx.showError(e); }
}

async function renderOdds(box, ctx, character, units) {
  if (!character || !units.length) { box.replaceChildren(el('div', {}, 'Select a unit (shift-click or Ctrl-click adds another, for a brigade) and a character to see what the order needs.')); return; }
  try {
    const o = await ctx.query('order_odds', { character, units });
    const pct = (o.chance.value * 100).toFixed(1);
    box.replaceChildren(el('div', { class: 'odds' },
      el('div', { id: 'order-needed' }, el('strong', {}, `Needs ${o.needed} or less on 2D6`), ` (${o.chance.fraction} = ${pct}%), Command ${o.command}`),
      o.penalties.length ? el('table', {}, o.penalties.map((p) => el('tr', {}, el('td', {}, p.value > 0 ? `+${p.value}` : `−${-p.value}`), el('td', {}, p.reason)))) : el('div', {}, 'No penalties.')));
  } catch (e) { box.replaceChildren(el('div', { class: 'error' }, e.error?.message ?? e.message)); }
}

const pct = (p) => `${(p * 100).toFixed(1)}%`;

// Before "shoot": each shooter's target as the engine picks it, and per
// target the exact chance of each number of unsaved hits, of losing a stand,
// and of each drive-back result (the `shooting_odds` query).
async function renderShootingOdds(box, ctx) {
  try {
    const q = await ctx.query('shooting_odds', {});
    const name = ctx.game.players[q.side];
    const shooters = q.shooters.map((x) => el('li', {}, x.target
      ? `${x.shooter} → ${x.target} (${x.distance} cm, range ${x.range} cm, ${x.attacks} dice)` +
        (x.choices ? `; equally close: ${x.choices.join(', ')} (choose among the actions)` : '') +
        (x.passed_over ? `; passes over ${x.passed_over.join(', ')} (engaged in combat)` : '')
      : `${x.shooter}: no target — ${x.reason}`));
    const targets = q.targets.map((t) => el('div', { class: 'odds-target', 'data-target': t.target },
      el('div', {}, el('strong', {}, t.target), ` shot by ${t.shooters.join(', ')}: ${t.attacks} dice, ${t.position} (hits on ${t.needed}+), ${t.armour ? `save ${t.armour}+` : 'no save'}`),
      el('table', {},
        el('tr', {}, el('th', {}, 'unsaved hits'), t.rows.map((r) => el('th', {}, String(r.unsaved)))),
        el('tr', {}, el('td', {}, 'chance'), t.rows.map((r) => el('td', { title: r.fraction ?? '' }, pct(r.chance)))),
        el('tr', {}, el('td', {}, 'stands lost'), t.rows.map((r) => el('td', {}, String(r.stands_removed)))),
        el('tr', {}, el('td', {}, 'drive back'), t.rows.map((r) => el('td', {}, r.drive_back_dice ? `${r.drive_back_dice}D6 ≈${r.mean_drive_back.toFixed(1)} cm` : '—')))),
      el('div', { class: 'odds-summary' }, `a stand lost ${pct(t.any_stand_removed)} · destroyed ${pct(t.destroyed)} · confused (a 6 on a drive-back die) ${pct(t.confused)} · routed (driven back ${t.pace} cm or more) ${pct(t.routed)}`)));
    box.replaceChildren(el('div', { class: 'odds', id: 'shooting-odds' }, el('h2', {}, `Shooting odds: ${name}`),
      shooters.length ? el('ul', { class: 'shooters' }, shooters) : el('div', {}, 'No unit of this side can shoot.'), targets,
      el('div', { class: 'hint' }, 'Exact, before the dice; press "shoot" among the actions to roll.')));
  } catch (e) { box.replaceChildren(el('div', { class: 'error' }, e.error?.message ?? e.message)); }
}

// In the Combat phase: each engagement's first round (dice, support) and the
// exact chance of each side winning, and of a draw (the `combat_odds` query).
// A side's dice name the joined characters' bonuses among them
// (docs/rulings.md#warmaster-combat-characters): "11 (General Kessler +2)".
function bonusWords(side) {
  const bonus = (side.attacks ?? []).flatMap((a) => (a.modifiers ?? []).filter((m) => m.character));
  return bonus.length ? ` (${bonus.map((m) => `${m.name} +${m.value}`).join(', ')})` : '';
}
async function renderCombatOdds(box, ctx) {
  try {
    const q = await ctx.query('combat_odds', {});
    const [a, b] = ctx.game.players;
    const rows = q.engagements.map((e) => el('div', { class: 'odds-engagement', 'data-engagement': e.engagement },
      el('div', {}, el('strong', {}, `Engagement ${e.engagement + 1}: `), e.units.map((u) => nameOf(u, ctx)).join(', ')),
      el('table', {},
        el('tr', {}, el('th', {}, ''), el('th', {}, 'dice'), el('th', {}, 'support'), el('th', {}, 'mean hits')),
        e.sides.map((sd) => el('tr', {}, el('td', {}, ctx.game.players[sd.side]), el('td', {}, String(sd.dice) + bonusWords(sd)), el('td', {}, String(sd.support)), el('td', {}, sd.mean_hits.toFixed(2))))),
      el('div', { class: 'odds-summary' }, `${a} wins ${pct(e.side_0_wins)} · draw ${pct(e.draw)} · ${b} wins ${pct(e.side_1_wins)}`)));
    // fill, not replaceChildren: no engagement means no decisions form (null), which must not print.
    fill(box, el('div', { class: 'odds', id: 'combat-odds' }, el('h2', {}, 'Combat odds (first round)'),
      rows.length ? rows : el('div', {}, 'No engagement: nothing fights this phase.'),
      el('div', { class: 'hint' }, 'Exact for the first round, before the dice; pursuit rounds depend on it.')),
      decisionsForm(ctx, q.engagements));
  } catch (e) { box.replaceChildren(el('div', { class: 'error' }, e.error?.message ?? e.message)); }
}

// What each engaged unit does after a round, sent with the end_phase that
// fights the phase: standing orders for both sides' units, a unit left on
// "default" not named (docs/rulings.md#warmaster-combat-decisions). A
// choice that does not fit what happens is ruled on by the engine.
const CHOICES = [['default', 'default'], ['pursue', 'pursue'], ['stand', 'stand'], ['fall_back', 'fall back'], ['advance', 'advance']];
function decisionsForm(ctx, engagements) {
  // Only the units of sides this board chooses for: the other player's, or
  // the built-in opponent's, are theirs to decide.
  const sideOf = new Map((ctx.game.state.units ?? []).map((u) => [u.id, u.side]));
  const units = [...new Set(engagements.flatMap((e) => e.units))].filter((u) => choosesFor(ctx.game, sideOf.get(u)));
  if (!units.length) return null;
  const key = `${ctx.game.id}@${ctx.game.position}`;
  if (ui.decisionsKey !== key) Object.assign(ui, { decisionsKey: key, decisions: {} });
  const selects = units.map((u) => el('select', { 'data-decision': u, 'aria-label': `Decision for ${nameOf(u, ctx)}`, title: u, onchange: (ev) => { ui.decisions[u] = ev.target.value; } },
    CHOICES.map(([v, label]) => el('option', { value: v, selected: (ui.decisions[u] ?? 'default') === v }, label))));
  const fight = el('button', { type: 'button', class: 'primary', id: 'fight-combat', onclick: () => {
    const decisions = units.filter((u) => (ui.decisions[u] ?? 'default') !== 'default').map((u) => ({ unit: u, choice: ui.decisions[u] }));
    const label = `Fight the combats and end the turn${decisions.length ? `: ${decisions.map((d) => `${nameOf(d.unit, ctx)} ${d.choice.replace('_', ' ')}`).join(', ')}` : ''}`;
    ctx.apply(decisions.length ? { type: 'end_phase', decisions } : { type: 'end_phase' }, label);
  } }, 'Fight the Combat phase');
  return el('div', { class: 'decisions', id: 'combat-decisions' }, el('h2', {}, 'After each round'),
    el('table', {}, units.map((u, i) => el('tr', {}, el('td', { title: u }, nameOf(u, ctx)), el('td', {}, selects[i])))),
    el('div', { class: 'controls-row' }, fight),
    el('div', { class: 'hint' }, 'Both sides\' units: a winner pursues when allowed by default, a draw falls back its lowest die (defended: stands).'));
}

// The battle's deployment warnings, if any: a unit whose stands touch no
// other stand of it moves at half pace and must re-form.
function deploymentWarnings() {
  if (!ui.deployment?.length) return [];
  return [el('div', { class: 'warning', role: 'status', id: 'deployment-warnings' },
    el('strong', {}, 'Deployed in no formation'),
    el('ul', {}, ui.deployment.map((w) => el('li', { title: w.rule }, w.reason.replace(/ \(docs\/rulings\.md#[a-z-]+\)$/, '')))))];
}

// The play sheet's sequence, with where the turn is: Command (initiative,
// orders, characters), Shooting, Combat.
function phaseBar(ctx) {
  const [phase, step] = String(ctx.game.phase ?? '').split(':').map((x) => x.trim());
  const item = (name, label, steps) => el('li', { class: phase === name ? 'now' : '', 'aria-current': phase === name ? 'step' : null },
    label, steps && phase === name && step ? el('span', { class: 'muted' }, ` (${steps.map((x) => (x === step ? x.toUpperCase() : x)).join(' · ')})`) : null);
  return el('ol', { id: 'phase-bar', 'aria-label': 'Phases of the turn' },
    item('command', '1. Command', ['initiative', 'orders', 'characters']), item('shooting', '2. Shooting'), item('combat', '3. Combat'));
}

// Each side's losses so far: units gone (destroyed, routed or off the table
// for good) and stands lost by the units still fighting.
function casualties(ctx) {
  const state = ctx.game.state;
  const sides = ctx.game.players.map((name, side) => {
    const units = (state.units ?? []).filter((u) => u.side === side);
    const gone = units.filter((u) => u.destroyed || !u.stands?.length).map((u) => nameOf(u.id, ctx));
    const hurt = units.filter((u) => !u.destroyed && u.stands?.length && u.stands_lost > 0).map((u) => `${nameOf(u.id, ctx)}: ${u.stands_lost} stand${u.stands_lost === 1 ? '' : 's'} lost`);
    if (!gone.length && !hurt.length) return null;
    return el('li', {}, el('strong', {}, name), gone.length ? el('div', {}, `Gone: ${gone.join(', ')}`) : null,
      hurt.length ? el('div', {}, hurt.join('; ')) : null);
  }).filter(Boolean);
  return sides.length ? el('div', { id: 'casualties' }, el('h2', {}, 'Casualties'), el('ul', {}, sides)) : null;
}

// --- Formation helpers -------------------------------------------------------
// A unit with a move to make re-formed by the engine's own planners (the
// `formation_plan` query): in a line facing a point clicked on the table, or
// in a column along a path pressed and dragged from the unit (the lead at
// its end). The ghost of the planned formation is drawn, each stand green,
// or red where the verdict faults it, with the reason shown; "Make this
// move" makes it, Escape cancels. ui.formation: { unit, shape, toward, path,
// dragging, plan, inflight, key }.
const FORMATION_WORDS = {
  line: ['Form line facing a point', 'Click the point the line is to face.'],
  column: ['Form column along a path', 'Press on the unit and drag the way the column is to follow; release to see it.'],
};

function formationArgs(f) {
  return f.shape === 'line' ? { unit: f.unit, shape: 'line', toward: { x: round1(f.toward.x), y: round1(f.toward.y) } }
    : { unit: f.unit, shape: 'column', path: f.path.map((p) => ({ x: round1(p.x), y: round1(p.y) })) };
}

// One request at a time; a path or point changed meanwhile is asked again
// when the answer comes (as checkDrag does for a drag).
async function planFormation(ctx, state) {
  const f = ui.formation;
  if (!f || f.inflight || (f.shape === 'line' ? !f.toward : f.path.length < 2)) return;
  const args = formationArgs(f);
  const key = JSON.stringify(args);
  if (key === f.key) return;
  f.inflight = true;
  try {
    const plan = await ctx.query('formation_plan', args);
    if (ui.formation !== f) return;
    f.plan = plan;
    f.key = key;
    const what = f.shape === 'line' ? `${nameOf(f.unit, ctx)} in line facing (${args.toward.x}, ${args.toward.y})` : `${nameOf(f.unit, ctx)} in column along ${plan.length} cm`;
    await ctx.showVerdict(plan, what);
    render(document.getElementById('board'), state, ctx);
    if (!f.dragging) renderControls(ctx);
  } catch (e) { ctx.showError(e); } finally {
    f.inflight = false;
    if (ui.formation === f && JSON.stringify(formationArgs(f)) !== f.key) planFormation(ctx, state);
  }
}

// The pointer on the table while a formation is being set out: true when
// the formation took the event.
function formationPointer(kind, s, ev, state, ctx, H) {
  const f = ui.formation;
  if (!f || ctx.replay) return false;
  const to = toTable(s, ev, H);
  if (kind === 'down') {
    if (f.shape === 'line') { f.toward = to; planFormation(ctx, state); return true; }
    Object.assign(f, { path: [to], dragging: true, plan: null, key: null });
    s.setPointerCapture(ev.pointerId);
    render(s.parentNode, state, ctx);
    return true;
  }
  if (f.shape !== 'column' || !f.dragging) return f.shape === 'line';
  const last = f.path[f.path.length - 1];
  if (kind === 'move' && Math.hypot(to.x - last.x, to.y - last.y) >= 1) f.path.push(to);
  if (kind === 'up') f.dragging = false;
  render(s.parentNode, state, ctx);
  planFormation(ctx, state);
  if (kind === 'up') renderControls(ctx);
  return true;
}

// The ghost of the planned formation over the stands, its path (or the
// point faced, and the way from the unit's centre to it), and a label.
function formationGhosts(info, pts, sx, sy, ctx) {
  const g = svg('g', { class: 'formation-plan', 'pointer-events': 'none' });
  const f = ui.formation;
  if (!f || ctx.replay) return g;
  const [w, d] = standSize(info.get(f.unit) ?? {});
  const line = (ps, attrs) => svg('polyline', { points: ps.map((p) => `${sx(p.x).toFixed(2)},${sy(p.y).toFixed(2)}`).join(' '), fill: 'none', stroke: '#37474f', 'stroke-width': 0.35, 'stroke-dasharray': '1.2 0.6', ...attrs });
  if (f.path?.length > 1) g.append(line(f.path, { class: 'formation-path' }));
  const plan = f.plan;
  const centre = plan ? centreOf(plan.move.stands.map((st) => st.to)) : null;
  if (f.toward) {
    if (centre) g.append(line([centre, f.toward], { class: 'formation-bearing' }));
    g.append(svg('circle', { class: 'formation-point', cx: sx(f.toward.x), cy: sy(f.toward.y), r: 1.2, fill: '#fff', 'fill-opacity': 0.6, stroke: '#37474f', 'stroke-width': 0.4 }),
      svg('circle', { cx: sx(f.toward.x), cy: sy(f.toward.y), r: 0.3, fill: '#37474f' }));
  }
  if (!plan) return g;
  const faults = new Set(plan.faults);
  for (const st of plan.move.stands) {
    const bad = faults.has(st.stand);
    const colour = bad ? '#c62828' : '#1a7f37';
    const c = corners(st.to.x, st.to.y, st.to.facing ?? 0, w, d);
    g.append(svg('polygon', { class: 'formation-ghost' + (bad ? ' fault' : ''), 'data-unit': f.unit, 'data-stand': st.stand, points: pts(c), fill: colour, 'fill-opacity': 0.35, stroke: colour, 'stroke-width': 0.45, 'stroke-dasharray': '1 0.5' }),
      svg('line', { x1: sx(c[0][0]), y1: sy(c[0][1]), x2: sx(c[1][0]), y2: sy(c[1][1]), stroke: colour, 'stroke-width': 0.5 }));
  }
  const top = Math.max(...plan.move.stands.flatMap((st) => corners(st.to.x, st.to.y, st.to.facing ?? 0, w, d).map(([, y]) => y)));
  const colour = plan.legal ? '#1a7f37' : '#c62828';
  g.append(svg('text', { class: 'formation-label', x: sx(centre.x), y: sy(top) - 1.2, 'font-size': 2.4, 'text-anchor': 'middle', fill: colour, stroke: '#fff', 'stroke-width': 0.5, 'paint-order': 'stroke' },
    `${f.shape}: ${plan.legal ? 'legal' : 'refused, ' + (plan.violations[0]?.rule ?? '').replace(/^warmaster\./, '')}`));
  return g;
}

function cancelFormation(ctx) {
  if (!ui.formation) return;
  ui.formation = null;
  const board = document.getElementById('board');
  if (board) render(board, ctx.game.state, ctx);
  renderControls(ctx);
}

// The two helpers, in words, beside "Move stands one at a time", for the
// one selected unit with a move to make; and the move planned, to make.
function formationControls(ctx, state) {
  if (ui.formation && (!pendingFor(state, ui.formation.unit) || ui.selected[0] !== ui.formation.unit)) ui.formation = null;
  const unit = ui.selected.length === 1 ? ui.selected[0] : null;
  const pending = unit ? pendingFor(state, unit) : null;
  if (!pending || pending.move === 'none') return null;
  if (!ui.escapeKey) {
    ui.escapeKey = true;
    document.addEventListener('keydown', (ev) => { if (ev.key === 'Escape' && ui.formation) cancelFormation(ui.formationCtx); });
  }
  ui.formationCtx = ctx;
  const f = ui.formation;
  const start = (shape) => {
    ui.formation = { unit, shape, path: [], toward: null, plan: null, key: null };
    ui.reform = null;
    render(document.getElementById('board'), state, ctx);
    renderControls(ctx);
  };
  return el('div', { id: 'formation' },
    el('div', { class: 'controls-row' }, ...Object.entries(FORMATION_WORDS).map(([shape, [words]]) =>
      el('button', { type: 'button', id: `form-${shape}`, 'aria-pressed': String(f?.shape === shape), onclick: () => start(shape) }, words))),
    f ? el('div', { class: 'hint', id: 'formation-hint' }, `${FORMATION_WORDS[f.shape][1]} Escape cancels.`) : null,
    f?.plan && !f.dragging ? makeMoveRow(ctx, state, { unit: f.unit, legal: f.plan.legal, action: { type: 'move', moves: [f.plan.move] },
      label: `Move ${nameOf(f.unit, ctx)} (formed in ${f.shape})`, again: 'Cancel', reset: () => cancelFormation(ctx) }) : null);
}

// "Make this move" for a move set out on the board (a re-form stand by
// stand, or a formation), and a button to start again.
function makeMoveRow(ctx, state, { unit, legal, action, label, again, reset }) {
  return el('div', { class: 'controls-row' },
    el('button', { type: 'button', class: 'primary', id: 'make-move', disabled: !legal || !action,
      onclick: async () => { ui.reform = null; ui.formation = null; await ctx.apply(action, label); } }, `Make this move (${nameOf(unit, ctx)})`),
    el('button', { type: 'button', id: 'reset-reform', onclick: reset }, again));
}

function renderControls(ctx) {
  const root = document.getElementById('controls');
  const state = ctx.game.state;
  if (ctx.game.system !== 'warmaster') return;
  if (ctx.replay) return;
  // The battle over: the last turn's panels go; the banner (the shell's,
  // at the top of the panel) and each side's losses stay.
  if (ctx.game.terminal) {
    fill(root, casualties(ctx));
    return;
  }
  const losses = casualties(ctx);
  // Another player's turn, the built-in opponent's, or watching: where the
  // turn is and the losses, nothing to act with (the status says whose turn
  // it is; the opponent's own button plays its actions).
  if (!mayPlay()) {
    fill(root, phaseBar(ctx), losses);
    return;
  }
  const warnings = [phaseBar(ctx), nextPhaseControl(ctx), ...deploymentWarnings()];
  if (ctx.game.phase === 'shooting' || ctx.game.phase === 'combat') {
    const box = el('div', {});
    fill(root, ...warnings, box, losses);
    (ctx.game.phase === 'shooting' ? renderShootingOdds : renderCombatOdds)(box, ctx);
    return;
  }
  const mine = (state.characters ?? []).filter((c) => c.side === state.side && !c.lost && !c.finished);
  const chosen = ui.character && mine.some((c) => c.id === ui.character) ? ui.character : (state.active_character || mine[0]?.id);
  ui.character = chosen;
  const select = el('select', { id: 'order-character', 'aria-label': 'Character giving the order', onchange: (ev) => { ui.character = ev.target.value; renderControls(ctx); } },
    mine.map((c) => el('option', { value: c.id, selected: c.id === chosen, title: c.id }, `${nameOf(c.id, ctx)} (${c.role})${c.failed ? ': failed' : ''}`)));
  // A failed order ends that character's orders; the General's failing ends
  // everyone's (play sheet, "1. COMMAND"): the panel says so instead of
  // offering an order the rules refuse.
  const general = (state.characters ?? []).find((c) => c.side === state.side && c.role === 'general');
  const stopped = state.general_failed
    ? `${nameOf(general?.id ?? 'the General', ctx)} failed an order: no more orders this phase. Move the characters, or end the phase.`
    : (state.characters ?? []).find((c) => c.id === chosen)?.failed
      ? `${nameOf(chosen, ctx)} failed an order and gives no more this phase; another character may.` : null;
  const odds = el('div', { id: 'order-odds' });
  const units = ui.selected.filter((id) => state.units.some((u) => u.id === id && u.side === state.side));
  const give = el('button', { type: 'button', class: 'primary', id: 'give-order', disabled: !chosen || !units.length || !!stopped,
    onclick: () => ctx.apply(units.length === 1 ? { type: 'order', character: chosen, unit: units[0] } : { type: 'order', character: chosen, units }) }, 'Give order and roll');
  // Re-forming stand by stand: a checkbox, and the move set out so far.
  if (ui.reform && !pendingFor(state, ui.reform.unit)) ui.reform = null;
  const reform = el('div', { id: 'reform' },
    el('label', { class: 'controls-row', title: 'Drag one stand at a time (the wheel turns it); make the move when every stand is placed' },
      el('input', { type: 'checkbox', id: 'stand-by-stand', checked: !!ui.standByStand, onchange: (ev) => { ui.standByStand = ev.target.checked; if (!ui.standByStand) ui.reform = null; render(document.getElementById('board'), state, ctx); renderControls(ctx); } }),
      ' Move stands one at a time (to re-form)'),
    formationControls(ctx, state),
    ui.reform ? makeMoveRow(ctx, state, { unit: ui.reform.unit, legal: ui.reform.legal, action: ui.reform.action, label: `Move ${nameOf(ui.reform.unit, ctx)} (re-formed)`,
      again: 'Start again', reset: () => { ui.reform = null; render(document.getElementById('board'), state, ctx); renderControls(ctx); } }) : null);
  fill(root, ...warnings, el('h2', {}, 'Orders'),
    stopped ? el('div', { class: 'warning', id: 'orders-stopped', role: 'status' }, stopped) : null,
    el('div', { class: 'controls-row' }, 'By ', select, ' to ', el('strong', {}, units.length ? units.map((u) => nameOf(u, ctx)).join(', ') : '(select units)')),
    unitChooser(ctx, state),
    odds, el('div', { class: 'controls-row' }, give), reform, losses,
    el('div', { class: 'hint' }, 'Click a unit to select it; shift-click or Ctrl-click adds another (a brigade: units touching). Drag a unit to move it; turn it with its round handle (or the wheel while dragging); green is legal, red shows the rule. Drag a character to move it; dropped on a unit of its own, it joins it. N: next phase.'));
  renderOdds(odds, ctx, chosen, units);
}

export function controls(root, ctx) {
  ctx.board = { controls: () => renderControls(ctx) };
  renderControls(ctx);
}

// "Next phase" (N): ends the phase or step, then passes through the phases
// that follow where the side has nothing to do (no unit that can shoot at
// anything, no unit in contact, no character to move), a line for each.
// It stops at any step with a choice, at the end of the side's turn (the
// built-in opponent's turn shows in its own panel), and, with "Stop at every
// phase" ticked, after the one step. The end of a Command phase that would
// give up an ordered move still asks first (confirmFirst).
const kStopEveryPhase = 'referee.warmaster.stop-every-phase';
function stopEveryPhase() {
  try { return localStorage.getItem(kStopEveryPhase) === 'yes'; } catch { return false; }
}

function nextPhaseControl(ctx) {
  const g = ctx.game;
  const opponents = playedByOpponent(g, g.current_player);
  return el('div', { class: 'controls-row', id: 'next-phase-row' },
    el('button', { type: 'button', id: 'next-phase', disabled: opponents, onclick: () => nextPhase(ctx),
      title: 'Next phase (N): ends this phase or step, and passes through the phases where there is nothing to do' }, 'Next phase'),
    el('label', { title: 'Stop at every phase and step, even where there is nothing to do' },
      el('input', { type: 'checkbox', id: 'stop-every-phase', checked: stopEveryPhase(),
        onchange: (ev) => { try { localStorage.setItem(kStopEveryPhase, ev.target.checked ? 'yes' : 'no'); } catch { /* this page only */ } } }),
      ' Stop at every phase'));
}

// The action that ends the step shown: the orders (on to the characters),
// the Command phase, the shooting (when no target is the player's to
// choose), or the combats (with the decisions chosen in the panel).
function endOfStep(ctx) {
  const legal = ctx.game.legal_actions ?? [];
  const bare = (type) => legal.find((a) => a.type === type && Object.keys(a).length === 1);
  const phase = String(ctx.game.phase ?? '');
  if (phase.startsWith('command')) return bare('end_orders') ?? bare('end_phase');
  if (phase.startsWith('shooting')) return legal.length === 1 && legal[0].type === 'shoot' ? legal[0] : null;
  if (phase.startsWith('combat') && bare('end_phase')) {
    const mine = ui.decisionsKey === `${ctx.game.id}@${ctx.game.position}` ? Object.entries(ui.decisions ?? {}) : [];
    const decisions = mine.filter(([, c]) => c !== 'default').map(([unit, choice]) => ({ unit, choice }));
    return decisions.length ? { type: 'end_phase', decisions } : { type: 'end_phase' };
  }
  return bare('end_phase');
}

// The step now, if the side has nothing to do in it: the action that
// passes it and the line that says so; else null.
async function nothingToDo(ctx) {
  const legal = ctx.game.legal_actions ?? [];
  const only = legal.length === 1 ? legal[0] : null;
  const phase = String(ctx.game.phase ?? '');
  if (phase.startsWith('shooting') && only?.type === 'shoot' && !only.targets) {
    const q = await ctx.query('shooting_odds', {});
    return q.shooters.some((x) => x.target) ? null : { action: only, line: 'Shooting: nothing to shoot at, passed' };
  }
  if (phase.startsWith('combat') && only?.type === 'end_phase') {
    const q = await ctx.query('combat_odds', {});
    return q.engagements.length ? null : { action: only, line: 'Combat: no unit in contact, passed' };
  }
  if (phase === 'command: characters' && only?.type === 'end_phase') return { action: only, line: 'Command: no character to move, passed' };
  return null;
}

async function nextPhase(ctx) {
  if (ui.passing || ctx.replay || ctx.game.terminal) return;
  const first = endOfStep(ctx);
  if (!first) {
    ctx.message(el('div', { class: 'warning', id: 'next-phase-none' }, 'This step ends with one of the actions listed (choose the targets, or make the move).'));
    return;
  }
  ui.passing = true;
  document.body.dataset.passing = 'true';  // the browser tests wait for its end
  const lines = [];
  try {
    const side = ctx.game.current_player;
    const label = describe(first, ctx, true);
    const out = await ctx.apply(first, label);
    if (!out?.applied) return;
    lines.push(label);
    while (!stopEveryPhase()) {
      const g = ctx.game;
      if (g.terminal || g.current_player !== side || playedByOpponent(g, g.current_player)) break;
      const pass = await nothingToDo(ctx);
      if (!pass) break;
      const o = await ctx.apply(pass.action, pass.line);
      if (!o?.applied) break;
      lines.push(pass.line);
    }
  } catch (e) { ctx.showError(e); } finally { ui.passing = false; delete document.body.dataset.passing; }
  if (lines.length > 1) document.getElementById('message').append(el('div', { id: 'phases-passed' }, el('strong', {}, 'Next phase: '), el('ul', {}, lines.map((l) => el('li', {}, l)))));
}

// N presses "Next phase", unless the key is typed into a field.
document.addEventListener('keydown', (ev) => {
  if (ev.key !== 'n' && ev.key !== 'N') return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const t = ev.target;
  if (t?.isContentEditable || t?.tagName === 'TEXTAREA' || t?.tagName === 'SELECT' || (t?.tagName === 'INPUT' && !['checkbox', 'radio', 'button'].includes(t.type))) return;
  const b = document.getElementById('next-phase');
  if (!b || b.disabled) return;
  ev.preventDefault();
  b.click();
});

// The side's units as checkboxes: the selection (a brigade included) made
// from the keyboard, as clicks and shift-clicks make it on the table.
function unitChooser(ctx, state) {
  const mine = (state.units ?? []).filter((u) => u.side === state.side && !u.destroyed && !u.off_table && u.stands?.length);
  const toggle = (id, on) => {
    ui.selected = on ? [...ui.selected.filter((x) => x !== id), id] : ui.selected.filter((x) => x !== id);
    ui.chooserOpen = true;
    render(document.getElementById('board'), state, ctx);
    renderControls(ctx);
    document.querySelector(`#unit-chooser input[data-choose="${id}"]`)?.focus();
  };
  return el('details', { id: 'unit-chooser', open: !!ui.chooserOpen, ontoggle: (ev) => { ui.chooserOpen = ev.target.open; } },
    el('summary', {}, 'Choose units with the keyboard'),
    el('div', { class: 'unit-choices' }, mine.map((u) => el('label', { class: 'controls-row', title: u.id },
      el('input', { type: 'checkbox', 'data-choose': u.id, checked: ui.selected.includes(u.id), onchange: (ev) => toggle(u.id, ev.target.checked) }),
      ` ${nameOf(u.id, ctx)}`))));
}

// A click that adds a unit to the selection (a brigade) instead of choosing it alone.
function addsToSelection(ev) { return ev.shiftKey || ev.ctrlKey || ev.metaKey; }

// The friendly unit a character is dropped on (within 1 cm of one of its
// stands), which it then joins (warmaster.command.join: it must end touching it).
function joinTarget(drag, state) {
  const c = (state.characters ?? []).find((x) => x.id === drag.character);
  const p = drag.poses[0];
  if (!c || !p) return null;
  let best = null;
  for (const u of state.units ?? []) {
    if (u.side !== c.side || u.destroyed || u.off_table || !u.stands?.length) continue;
    const [w, d] = standSize(ui.info?.get(u.id) ?? {});
    for (const st of u.stands) {
      // The point in the stand's own frame: across (a) and ahead (b).
      const r = ((st.facing ?? 0) * Math.PI) / 180, dx = p.x - st.x, dy = p.y - st.y;
      const a = dx * Math.cos(r) - dy * Math.sin(r), b = dx * Math.sin(r) + dy * Math.cos(r);
      const gap = Math.hypot(Math.max(0, Math.abs(a) - w / 2), Math.max(0, Math.abs(b) - d / 2));
      if (gap <= 1 && (!best || gap < best.gap)) best = { id: u.id, gap };
    }
  }
  return best?.id ?? null;
}

// The first minute: what a turn is, and what to click (shown until dismissed).
const howTo = [
  'Each side\'s turn has three phases: 1. Command, 2. Shooting, 3. Combat (the bar in the panel shows where you are).',
  'Command: click one of your units, pick the character giving the order, then "Give order and roll": the panel shows what the order needs on 2D6.',
  'An ordered unit moves by dragging it: green is legal, red names the rule. Drag it up to an enemy to charge; tick "Move stands one at a time" to re-form.',
  'Shooting: press "Shoot". Combat: choose what your units do after a round, then "Fight the combats and end the turn".',
  '"Next phase" (or N) ends the phase and passes through phases where you have nothing to do.',
  'In the fair battle (the fields of Hochland) the computer plays the Orcs; under Players either side can be you or the built-in opponent.',
];

registerBoard('warmaster', { render, controls, filterActions, describe, words, describeEntry, confirmFirst, howTo });
