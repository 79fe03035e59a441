// The Blightmeer battlefield seen from above, in inches: surfaces shaded by
// height, water and other regions, ladders, units with their level. Pick a
// unit to see its reach split by the checks needed (the `reach` query); draw
// a path step by step (walk, climb, jump down, jump across, ladder) with the
// inches used and each check's chance from the `check` query; resolve it.
import { el, fill, mayPlay, registerBoard, turnKey } from './shell.js';

const NS = 'http://www.w3.org/2000/svg';
const SIDE_COLOURS = ['#b33a2f', '#2f5fb3', '#2f8f4f', '#8f6f2f'];
const REGION = { deep_water: '#6fa4d8', shallow_water: '#a8cdee', difficult: '#c9d99a', impassable: '#555' };
const CHECK_COLOURS = ['#3fae5a', '#f0c040', '#f08a3c', '#d64545'];
const ui = { gameId: null, unit: null, reach: null, path: [], stepType: 'walk', run: false, report: null };

function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

export function filterActions(actions) { return actions.filter((a) => a.type !== 'move'); }

function r2(v) { return Math.round(v * 100) / 100; }

export function render(root, state, ctx) {
  const sc = ctx.game.scenario;
  // Selections belong to one player's turn: cleared when the turn passes.
  if (ui.gameId !== turnKey(ctx.game)) Object.assign(ui, { gameId: turnKey(ctx.game), unit: null, reach: null, path: [], report: null });
  const W = sc.table?.width ?? 36, D = sc.table?.depth ?? 36;
  const sy = (y) => D - y;
  const pts = (ps) => ps.map(([x, y]) => `${x},${sy(y)}`).join(' ');
  const maxH = Math.max(1, ...(sc.surfaces ?? []).map((s) => s.height));
  const s = svg('svg', { viewBox: `-1 -1 ${W + 2} ${D + 5}`, role: 'img', 'aria-label': 'Blightmeer battlefield', id: 'bm-svg' });
  s.append(svg('rect', { x: 0, y: 0, width: W, height: D, fill: '#eef0e6', stroke: '#777', 'stroke-width': 0.08 }));
  const grid = svg('g', { stroke: '#d8dccc', 'stroke-width': 0.03, 'pointer-events': 'none' });
  for (let x = 1; x < W; ++x) grid.append(svg('line', { x1: x, y1: 0, x2: x, y2: D, 'stroke-width': x % 6 ? 0.03 : 0.07 }));
  for (let y = 1; y < D; ++y) grid.append(svg('line', { x1: 0, y1: sy(y), x2: W, y2: sy(y), 'stroke-width': y % 6 ? 0.03 : 0.07 }));
  s.append(grid);
  for (const r of sc.regions ?? [])
    s.append(svg('polygon', { points: pts(r.area), fill: REGION[r.kind] ?? '#ccc', 'fill-opacity': 0.8, 'pointer-events': 'none' }, svg('title', {}, `${r.id}: ${r.kind.replaceAll('_', ' ')}`)));
  for (const t of sc.low_terrain ?? [])
    s.append(svg('polygon', { points: pts(t.area), fill: '#8a6a3a', 'pointer-events': 'none' }, svg('title', {}, `${t.id}: ${t.height}" high`)));
  // Labels go to the right of their unit, moved further down while they would overlap
  // one already placed (boxes estimated from the text's length).
  const placed = [];
  const place = (x, y, text, size) => {
    const w = text.length * size * 0.55, h = size * 1.15;
    let ty = y;
    for (let tries = 0; tries < 8; ++tries) {
      const box = [x, ty - h, x + w, ty];
      if (!placed.some((b) => box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3])) { placed.push(box); return ty; }
      ty += h;
    }
    return ty;
  };
  const surfaceLabels = [];
  for (const f of sc.surfaces ?? []) {
    // Light tan for low roofs to dark brown for the highest.
    const t = f.height / maxH;
    const fill = `rgb(${Math.round(222 - 120 * t)},${Math.round(200 - 130 * t)},${Math.round(160 - 110 * t)})`;
    s.append(svg('polygon', { points: pts(f.footprint), fill, stroke: '#4a4030', 'stroke-width': 0.08, 'pointer-events': 'none' }, svg('title', {}, `${f.id}: ${f.height}" high`)));
    const cx = f.footprint.reduce((a, p) => a + p[0], 0) / f.footprint.length;
    const cy = Math.max(...f.footprint.map((p) => p[1]));
    const label = `${f.id} ${f.height}"`;
    const lw = label.length * 0.6 * 0.55;
    surfaceLabels.push(svg('text', { x: cx, y: place(cx - lw / 2, sy(cy) + 0.8, label, 0.6), 'font-size': 0.6, 'text-anchor': 'middle', fill: '#fff', stroke: '#333', 'stroke-width': 0.12, 'paint-order': 'stroke', 'pointer-events': 'none' }, `${f.id} ${f.height}"`));
  }
  s.append(...surfaceLabels);
  for (const l of sc.ladders ?? [])
    s.append(svg('line', { x1: l.bottom[0], y1: sy(l.bottom[1]), x2: l.top[0], y2: sy(l.top[1]), stroke: '#6b3f1f', 'stroke-width': 0.25, 'stroke-dasharray': '0.15,0.1' }, svg('title', {}, `ladder ${l.id}, ${l.top[2] - l.bottom[2]}"`)));

  if (ui.reach && !ctx.replay) {
    const g = svg('g', { class: 'reach', 'pointer-events': 'none' });
    for (const c of ui.reach.cells ?? []) {
      const [x, y] = c.at;
      g.append(svg('rect', { x: x - 0.5, y: sy(y) - 0.5, width: 1, height: 1, fill: CHECK_COLOURS[Math.min(3, c.checks)], 'fill-opacity': 0.45 }));
    }
    s.append(g);
  }
  // The path being drawn.
  if (ui.unit && ui.path.length && !ctx.replay) {
    const u = state.units.find((x) => x.id === ui.unit);
    const line = [[u.position[0], u.position[1]], ...ui.path.filter((p) => p.to).map((p) => p.to)];
    s.append(svg('polyline', { points: pts(line), fill: 'none', stroke: ui.report?.legal === false ? '#c62828' : '#1a7f37', 'stroke-width': 0.15, class: 'path', 'pointer-events': 'none' }));
  }
  const sides = [...new Set((state.sides ?? []).concat((state.units ?? []).map((u) => u.side)))];
  const labels = svg('g', { 'pointer-events': 'none' });
  for (const u of state.units ?? []) {
    const [x, y, z] = u.position;
    const colour = SIDE_COLOURS[Math.max(0, sides.indexOf(u.side))];
    const st = u.state ?? {};
    const flags = [st.incapacitated ? 'out' : '', st.stunned ? 'Stunned' : '', st.dazed ? 'Dazed' : '', st.staggered ? 'Staggered' : '', st.engaged_with?.length ? 'engaged' : '', st.treasure ? 'Treasure' : ''].filter(Boolean);
    s.append(svg('circle', { cx: x, cy: sy(y), r: 0.5, fill: colour, 'fill-opacity': st.incapacitated ? 0.3 : 0.9, stroke: ui.unit === u.id ? '#111' : '#fff', 'stroke-width': ui.unit === u.id ? 0.15 : 0.06, 'data-unit': u.id, class: 'unit' },
      svg('title', {}, `${u.id}${u.name ? ' (' + u.name + ')' : ''} at ${r2(x)}, ${r2(y)}, level ${r2(z)}"${flags.length ? ': ' + flags.join(', ') : ''}`)));
    const text = `${u.id} ${r2(z)}"${flags.length ? ' ' + flags.join(' ') : ''}`;
    labels.append(svg('text', { x: x + 0.65, y: place(x + 0.65, sy(y) + 0.2, text, 0.55), 'font-size': 0.55, 'text-anchor': 'start', fill: '#111', stroke: '#fff', 'stroke-width': 0.1, 'paint-order': 'stroke' }, text));
  }
  s.append(labels);
  // Scale and legend.
  const y0 = D + 1.6;
  const legend = svg('g', { 'font-size': 0.6 });
  legend.append(svg('line', { x1: 0, y1: y0, x2: 6, y2: y0, stroke: '#111', 'stroke-width': 0.12 }), svg('text', { x: 6.4, y: y0 + 0.2 }, '6" (grid 1")'));
  let lx = 12;
  ['no check', '1 check', '2 checks', '3+'].forEach((t, i) => {
    legend.append(svg('rect', { x: lx, y: y0 - 0.4, width: 0.8, height: 0.8, fill: CHECK_COLOURS[i], 'fill-opacity': 0.6 }), svg('text', { x: lx + 1, y: y0 + 0.2 }, t));
    lx += 1.4 + t.length * 0.33;
  });
  legend.append(svg('text', { x: 0, y: y0 + 1.4 }, 'Surfaces darker = higher (height in inches); blue = water; unit labels give the level in inches.'));
  s.append(legend);
  root.replaceChildren(s);
  if (!ctx.replay && !ctx.game.terminal && mayPlay()) attach(s, state, ctx, D);
}

function toTable(s, ev, D) {
  const pt = s.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(s.getScreenCTM().inverse());
  return [Math.round(p.x * 10) / 10, Math.round((D - p.y) * 10) / 10];
}

async function checkPath(ctx) {
  if (!ui.unit || !ui.path.length) { ui.report = null; return; }
  try {
    ui.report = await ctx.query('check', { move: { unit: ui.unit, mode: ui.run ? 'run' : 'move', path: ui.path } });
  } catch (e) { ui.report = null; ctx.showError(e); }
}

function attach(s, state, ctx, D) {
  s.addEventListener('click', async (ev) => {
    const id = ev.target.dataset?.unit;
    if (id && id !== ui.unit && !ui.path.length) {
      ui.unit = id; ui.path = []; ui.report = null;
      try { ui.reach = await ctx.query('reach', { unit: id, run: ui.run }); } catch (e) { ctx.showError(e); }
      ctx.refresh(false);
      return;
    }
    if (!ui.unit) return;
    const to = toTable(s, ev, D);
    ui.path.push({ type: ui.stepType, to });
    await checkPath(ctx);
    ctx.refresh(false);
  });
}

function renderControls(ctx) {
  const root = document.getElementById('controls');
  if (ctx.replay || ctx.game.terminal || ctx.game.system !== 'blightmeer') return;
  // Another player's turn, or watching: nothing to act with (the status says whose turn).
  if (!mayPlay()) { root.replaceChildren(); return; }
  const state = ctx.game.state;
  if (!ui.unit) {
    root.replaceChildren(el('h2', {}, `${state.side ?? ''} to move`), el('div', {}, 'Click a unit to see its reach, then click the board to draw its path step by step.'));
    return;
  }
  const rep = ui.report;
  const types = ['walk', 'climb', 'jump_down', 'jump_across'];
  const ladders = ctx.game.scenario.ladders ?? [];
  fill(root, 
    el('h2', {}, `Move ${ui.unit}`),
    el('div', { class: 'controls-row' }, 'Next step: ', types.map((t) => el('button', { type: 'button', class: ui.stepType === t ? 'primary' : '', 'data-step': t, onclick: () => { ui.stepType = t; renderControls(ctx); } }, t.replace('_', ' ')))),
    ladders.length ? el('div', { class: 'controls-row' }, 'Ladder: ', ladders.map((l) => el('button', { type: 'button', onclick: async () => { ui.path.push({ type: 'ladder', ladder: l.id }); await checkPath(ctx); ctx.refresh(false); } }, l.id))) : null,
    el('div', { class: 'controls-row' }, el('label', {}, el('input', { type: 'checkbox', checked: ui.run, onchange: async (e) => { ui.run = e.target.checked; ui.reach = await ctx.query('reach', { unit: ui.unit, run: ui.run }); await checkPath(ctx); ctx.refresh(false); } }), ' run')),
    el('ol', { id: 'bm-steps' }, ui.path.map((p, i) => el('li', {}, `${p.type.replace('_', ' ')} ${p.to ? 'to ' + p.to.join(', ') : p.ladder}${rep?.steps?.[i] ? ` — ${rep.steps[i].cost}"` : ''}`))),
    rep ? el('div', { id: 'bm-report', class: rep.legal ? 'legal' : 'illegal' }, `${rep.legal ? 'Legal' : 'Illegal'}: ${rep.spent}" of ${rep.allowance.total}" used`) : null,
    rep?.checks?.length ? el('ul', {}, rep.checks.map((c) => el('li', {}, `step ${c.step + 1}: ${c.kind} check, Agility ${c.target} (${c.chance.fraction} = ${(c.chance.value * 100).toFixed(1)}%)${c.why?.length ? ' — ' + [].concat(c.why).join('; ') : ''}; if it fails, ${c.on_failure}`))) : null,
    rep && !rep.legal ? el('ul', {}, rep.violations.map((v) => el('li', {}, el('span', { class: 'rule' }, v.rule), ' ', v.reason))) : null,
    el('div', { class: 'controls-row' },
      el('button', { type: 'button', class: 'primary', id: 'bm-resolve', disabled: !rep?.legal, onclick: async () => {
        const action = { type: 'move', unit: ui.unit, mode: ui.run ? 'run' : 'move', path: ui.path };
        ui.path = []; ui.report = null; ui.reach = null; const unit = ui.unit; ui.unit = null;
        await ctx.apply(action, `move ${unit}`);
      } }, 'Resolve with dice'),
      el('button', { type: 'button', onclick: async () => { ui.path.pop(); await checkPath(ctx); ctx.refresh(false); } }, 'Remove last step'),
      el('button', { type: 'button', onclick: () => { Object.assign(ui, { unit: null, path: [], report: null, reach: null }); ctx.refresh(false); } }, 'Cancel')));
}

export function controls(root, ctx) { renderControls(ctx); }

registerBoard('blightmeer', { render, controls, filterActions });
