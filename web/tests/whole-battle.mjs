// A whole pitched battle played through the board as a person plays it:
// pointer and keyboard events only (no request to the API applies anything;
// the script reads the game with GET to aim its drags, as a player looks at
// the table). The Empire is played here, the Orcs by the built-in opponent.
// One script for both drivers, through a small adapter: playwright-core's
// page (Chromium) and puppeteer-core's page (Firefox over WebDriver BiDi).
//
// The Empire's plan: each turn its units are ordered toward the enemy (the
// unit clicked, "Give order and roll", the unit dragged), a unit in reach is
// dragged up to an enemy and released to charge; the Crossbowmen re-form into
// a column stand by stand and back into a line; the second Halberdiers are
// moved up to touch the first, and the two get one brigade order and are
// dragged as one body; every Shooting phase shoots; every Combat phase is
// fought, an engaged unit told what to do after a round through the form. The
// battle is played to the banner, the log saved with the board's Save log,
// and the banner's result is compared with `referee warmaster replay`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

// The adapter: what the script needs of a page. playwright-core's and
// puppeteer-core's pages agree on the mouse, the keyboard, clicks, focus,
// evaluation and screenshots; they differ on the wheel and on waiting for a
// function in the page.
function driver(name, page, wheel, until) {
  return {
    name, wheel, until,
    move: (x, y, steps = 1) => page.mouse.move(x, y, { steps }),
    down: () => page.mouse.down(),
    up: () => page.mouse.up(),
    // A person's click lands on what is under the pointer: when the board
    // redraws between finding the element and pressing (a live update), the
    // click goes to the element drawn in its place.
    click: async (selector) => {
      for (let k = 0; ; ++k) {
        try { return await page.click(selector); } catch (e) {
          if (k >= 3 || !/detached|not attached/i.test(String(e?.message))) throw e;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    },
    focus: (selector) => page.focus(selector),
    press: (key) => page.keyboard.press(key),
    keyDown: (key) => page.keyboard.down(key),
    keyUp: (key) => page.keyboard.up(key),
    waitFor: (selector, timeout = 30000) => page.waitForSelector(selector, { timeout }),
    read: (fn, arg) => page.evaluate(fn, arg),
    shot: (file) => page.screenshot({ path: file, fullPage: true }),
  };
}

export const playwrightDriver = (page) => driver('chromium', page, (dy) => page.mouse.wheel(0, dy),
  (fn, arg, timeout = 30000) => page.waitForFunction(fn, arg, { timeout }));

export const puppeteerDriver = (page) => driver('firefox', page, (dy) => page.mouse.wheel({ deltaY: dy }),
  (fn, arg, timeout = 30000) => page.waitForFunction(fn, { timeout, polling: 50 }, arg));

const EMPIRE = 0;
const PACE = { 'emp-knights-1': 30, 'emp-knights-2': 30, 'emp-pistoliers': 30, 'emp-cannon': 10 };
const pace = (id) => PACE[id] ?? 20;
const TABLE_H = 120;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Plays the battle; returns what happened and the result compared.
// opts: { d (driver), server (url), referee (binary), shots (folder), prefix
// (file name prefix "size-browser"), seed, log (print progress) }
// Seed 11: since characters add their Attacks in combat and blunders move
// units, the first of seeds 1-14 whose game shows all the test looks for at
// both sizes in Chromium (seed 4, the choice before, no longer has a Shooting
// phase with a casualty). WHOLE_BATTLE_SEED tries another, to choose again
// when the engine's rules change.
export const kSeed = Number(process.env.WHOLE_BATTLE_SEED ?? 11);
export async function playWholeBattle({ d, server, referee, shots, prefix, seed = kSeed, log = () => {} }) {
  const seen = { charge: 0, angledCharge: 0, decisionsHonoured: 0, column: false, line: false, brigade: false, brigadeMoved: false, shootingCasualty: 0, combatDecided: 0, decisions: 0, orders: 0, drags: 0, opponentTurns: 0 };
  const shot = (turn, phase) => d.shot(path.join(shots, `${prefix}-turn${turn}-${phase}.png`));
  const gameId = () => d.read(() => location.hash.slice(1));
  let id = null;
  const game = async () => (await fetch(`${server}api/games/${id}`)).json();
  const pagePos = () => d.read(() => Number((document.getElementById('replay-label')?.textContent ?? '').match(/^step (\d+) \(live\)/)?.[1] ?? -1));
  // Waits until the page shows the game at a position past `from` (an action applied).
  const applied = async (from, timeout = 30000) => {
    await d.until((p) => {
      if (document.getElementById('confirm')) return true;
      const m = (document.getElementById('replay-label')?.textContent ?? '').match(/^step (\d+) \(live\)/);
      return m && Number(m[1]) > p;
    }, from, timeout);
    if (await d.read(() => !!document.getElementById('confirm'))) {
      await d.click('#confirm-yes');
      await applied(from, timeout);
    }
  };
  // The page drawn at the server's position (nothing in flight).
  const settled = async () => {
    for (let i = 0; i < 600; ++i) {
      const g = await game();
      if (await pagePos() === g.position) return g;
      await sleep(50);
    }
    throw new Error('the page never showed the server\'s position');
  };
  // Clicks an action button of the list (its type, and optionally more of its JSON).
  const clickAction = async (type, more = '') => {
    const from = await pagePos();
    await d.click(`#action-list button[data-action*='"type":"${type}"']${more}`);
    await applied(from);
  };
  // The board in view: a person scrolls up (the wheel over the page).
  const boardInView = async () => {
    for (let i = 0; i < 10; ++i) {
      const top = await d.read(() => document.getElementById('wm-svg').getBoundingClientRect().top);
      if (top >= 0) return;
      await d.move(5, 200);
      await d.wheel(-400);
      await sleep(60);
    }
  };
  const screenOf = (x, y) => d.read(([x, y, h]) => {
    const s = document.getElementById('wm-svg');
    const p = s.createSVGPoint();
    p.x = x; p.y = h - y;
    const q = p.matrixTransform(s.getScreenCTM());
    return { x: q.x, y: q.y };
  }, [x, y, TABLE_H]);
  const pxPerCm = () => d.read(() => document.getElementById('wm-svg').getScreenCTM().a);

  // Zoomed in (the + button) until a pixel is under 1/12 cm, and panned (the
  // empty table dragged) until the table point (x, y) is near the middle:
  // stands placed to the millimetre, as a person on a phone would.
  const zoomOn = async (x, y) => {
    await boardInView();
    await d.click('#zoom-fit');
    for (let i = 0; i < 8 && await pxPerCm() < 12; ++i) await d.click('#zoom-in');
    for (let i = 0; i < 6; ++i) {
      await boardInView();
      const box = await d.read(() => { const r = document.getElementById('wm-svg').getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: Math.min(r.height, innerHeight - Math.max(0, r.top)) }; });
      const p = await screenOf(x, y);
      const c = { x: box.x + box.w / 2, y: box.y + box.h / 2 };
      const dx = c.x - p.x, dy = c.y - p.y;
      if (Math.abs(dx) < box.w / 5 && Math.abs(dy) < box.h / 5) return;
      // An empty spot of the table from which the pan stays on the board.
      const from = await d.read(([dx, dy]) => {
        const r = document.getElementById('wm-svg').getBoundingClientRect();
        const bottom = Math.min(r.bottom, innerHeight);
        const step = Math.max(1, Math.min(r.width, bottom - r.top) / 12);
        const clampX = (v) => Math.max(r.left + 4, Math.min(r.right - 4, v)), clampY = (v) => Math.max(r.top + 4, Math.min(bottom - 4, v));
        let best = null;
        for (let gy = r.top + step / 2; gy < bottom; gy += step) for (let gx = r.left + step / 2; gx < r.right; gx += step) {
          const e = document.elementFromPoint(gx, gy);
          if (!e || !e.closest('#wm-svg') || e.closest('.zoom') || e.dataset.unit || e.dataset.character || e.dataset.rotate) continue;
          const tx = clampX(gx + dx), ty = clampY(gy + dy), far = Math.hypot(tx - gx, ty - gy);
          if (far > 10 && (!best || far > best.far)) best = { x: gx, y: gy, tx, ty, far };
        }
        return best;
      }, [dx, dy]);
      if (!from) return;
      await d.move(from.x, from.y);
      await d.down();
      await d.move(from.tx, from.ty, 8);
      await d.up();
    }
  };
  const zoomOut = async () => { await boardInView(); await d.click('#zoom-fit'); };

  // Drags the stand `stand` of `unit` by (dx, dy) cm: the button held until
  // the board has checked the pose; released when `accept(verdict)` says so,
  // else brought back to where it began (no move). Returns the verdict.
  const dragBy = async (unit, stand, from, dx, dy, accept) => {
    await boardInView();
    // Zoomed in and the stand (or where it goes) off the part shown: panned to it again.
    const shown = async (x, y) => {
      const q = await screenOf(x, y);
      return d.read(([qx, qy]) => { const r = document.getElementById('wm-svg').getBoundingClientRect(); return qx > r.left + 8 && qx < r.right - 8 && qy > Math.max(0, r.top) + 8 && qy < Math.min(innerHeight, r.bottom) - 8; }, [q.x, q.y]);
    };
    if (await pxPerCm() >= 12 && !(await shown(from.x, from.y) && await shown(from.x + dx, from.y + dy))) await zoomOn(from.x + dx / 2, from.y + dy / 2);
    const k = await pxPerCm();
    const a = await screenOf(from.x, from.y);
    const ax = Math.round(a.x), ay = Math.round(a.y);
    // Whole pixels, so a browser that rounds the pointer moves the stand as far as asked.
    const bx = ax + Math.round(dx * k), by = ay - Math.round(dy * k);
    const hit = await d.read(([x, y]) => { const e = document.elementFromPoint(x, y); return { unit: e?.dataset?.unit, stand: e?.dataset?.stand }; }, [ax, ay]);
    if (hit.unit !== unit || hit.stand !== String(stand)) {
      await d.shot(path.join(shots, `${prefix}-unreachable.png`));
      return { verdict: `unreachable (${JSON.stringify(hit)} at ${ax}, ${ay})`, p0: null };
    }
    await d.move(ax, ay);
    await d.down();
    await d.move(bx, by, 10);
    await d.until(() => document.body.dataset.drag && document.body.dataset.drag !== 'checking', null, 15000);
    await sleep(30);
    await d.until(() => document.body.dataset.drag !== 'checking', null, 15000);
    const verdict = await d.read(() => document.body.dataset.drag);
    ++seen.drags;
    if (accept(verdict)) {
      const p0 = await pagePos();
      await d.up();
      return { verdict, p0 };
    }
    const why = await d.read(() => document.getElementById('message').textContent);
    await d.move(ax, ay, 4);
    await d.up();
    return { verdict, p0: null, why };
  };

  // Selects a unit (shift held: adds it to a brigade) and gives the order;
  // true when it passed.
  const order = async (units) => {
    await boardInView();
    for (const [i, u] of units.entries()) {
      if (i > 0) await d.keyDown('Shift');
      await d.click(`#wm-svg polygon.stand[data-unit="${u}"][data-stand="0"]`);
      if (i > 0) await d.keyUp('Shift');
    }
    await d.until((n) => !document.getElementById('give-order')?.disabled && document.getElementById('order-odds')?.textContent.includes('Needs') &&
      document.querySelector('#controls strong:not(#order-needed strong)')?.textContent.split(', ').length === n, units.length);
    const from = await pagePos();
    await d.click('#give-order');
    await applied(from);
    const head = await d.read(() => document.querySelector('#outcome .outcome-head')?.textContent ?? '');
    // The outcome names the units ordered (a one-unit order once showed none).
    assert.match(head, /^(Passed|Failed): Order \S.* \(General Kessler\)$/, head);
    ++seen.orders;
    log(`  ${head}`);
    return head.startsWith('Passed');
  };

  const centre = (stands) => ({ x: stands.reduce((a, s) => a + s.x, 0) / stands.length, y: stands.reduce((a, s) => a + s.y, 0) / stands.length });
  const enemiesOf = (g) => g.state.units.filter((u) => u.side !== EMPIRE && !u.destroyed && !u.off_table && u.stands?.length);
  // The enemy nearest a unit: its distance (stand centre to stand centre) and the way to it.
  const nearest = (g, unit) => {
    let best = null;
    for (const e of enemiesOf(g)) for (const q of e.stands) for (const p of unit.stands) {
      const dist = Math.hypot(q.x - p.x, q.y - p.y);
      if (!best || dist < best.dist) best = { enemy: e.id, dist, ux: (q.x - p.x) / dist, uy: (q.y - p.y) / dist };
    }
    return best;
  };

  // docs/rulings.md#warmaster-moving-chargers: a dragged charge lands with a
  // stand square to the enemy it charged (facings a multiple of 90 degrees
  // apart, to half a degree), however the drag came at it. One dragged at an
  // angle (the way it was dragged, or its own facing, more than 3 degrees
  // off square to the enemy) is counted.
  const skew = (a, b) => { const x = (((a - b) % 90) + 90) % 90; return Math.min(x, 90 - x); };
  const landsLinedUp = (before, state, enemy, ux, uy) => {
    const after = state.units.find((u) => u.id === before.id);
    const target = state.units.find((u) => u.id === enemy);
    const square = Math.min(...after.stands.flatMap((s) => target.stands.map((t) => skew(s.facing ?? 0, t.facing ?? 0))));
    assert.ok(square < 0.5, `the charge of ${before.id} lands square to ${target.id}: ${square.toFixed(2)} degrees off`);
    const heading = Math.atan2(ux, uy) * 180 / Math.PI;  // compass: 0 is +y
    const dragged = Math.min(...target.stands.map((t) => skew(heading, t.facing ?? 0)));
    const facing = Math.min(...before.stands.flatMap((s) => target.stands.map((t) => skew(s.facing ?? 0, t.facing ?? 0))));
    if (Math.max(dragged, facing) > 3) {
      ++seen.angledCharge;
      log(`  at an angle: dragged ${dragged.toFixed(1)} and faced ${facing.toFixed(1)} degrees off square, landed ${square.toFixed(2)} off`);
    }
  };

  // An ordered unit moved: a charge if an enemy is in reach, else toward the
  // nearest enemy, stopping short of it; nothing if every try is refused.
  const moveOrdered = async (g, id, half) => {
    const unit = g.state.units.find((u) => u.id === id);
    const n = nearest(g, unit);
    if (!n) return;
    const reach = half ? pace(id) / 2 : pace(id);
    const grab = unit.stands[unit.stands.length >> 1];
    const standIndex = unit.stands.length >> 1;
    // Stand centres 6 cm apart: within the board's 3 cm of the enemy, so the charge is offered.
    if (n.dist - 6 <= reach - 0.5) {
      const r = await dragBy(id, standIndex, grab, n.ux * (n.dist - 6), n.uy * (n.dist - 6), (v) => v === 'charge');
      if (r.p0 !== null && r.p0 !== undefined) {
        await applied(r.p0);
        const last = await d.read(() => document.querySelector('#log-list li:last-child')?.textContent ?? '');
        assert.match(last, / charges /, `the charge was made: ${last}`);
        ++seen.charge;
        log(`  charge: ${last}`);
        landsLinedUp(unit, (await game()).state, n.enemy, n.ux, n.uy);
        return;
      }
      log(`  no charge for ${id} on ${n.enemy} (${r.verdict})`);
    }
    for (const len of [Math.min(reach - 0.5, n.dist - 16), Math.min(reach - 0.5, n.dist - 16) / 2]) {
      if (len < 2) return;
      const r = await dragBy(id, standIndex, grab, n.ux * len, n.uy * len, (v) => v === 'legal');
      if (r.p0 !== null && r.p0 !== undefined) { await applied(r.p0); return; }
    }
  };

  // The Crossbowmen re-formed stand by stand: stands 1 and 2 behind stand 0
  // (a column), or beside it (a line), and the move made with "Make this move".
  const reform = async (g, id, into) => {
    const unit = g.state.units.find((u) => u.id === id);
    const [s0, s1, s2] = unit.stands;
    const f = (s0.facing * Math.PI) / 180;
    const back = { x: -Math.sin(f), y: -Math.cos(f) }, right = { x: Math.cos(f), y: -Math.sin(f) };
    const want = into === 'column'
      ? [{ x: s0.x + 2 * back.x, y: s0.y + 2 * back.y }, { x: s0.x + 4 * back.x, y: s0.y + 4 * back.y }]
      : [{ x: s0.x + 4 * right.x, y: s0.y + 4 * right.y }, { x: s0.x + 8 * right.x, y: s0.y + 8 * right.y }];
    await d.click('#stand-by-stand');
    await zoomOn(s0.x, s0.y);
    for (const [i, st] of [[1, s1], [2, s2]]) {
      const r = await dragBy(id, i, st, want[i - 1].x - st.x, want[i - 1].y - st.y, () => true);
      assert.ok(!r.verdict.startsWith('unreachable'), `stand ${i} of ${id} is under the pointer: ${r.verdict}`);
      log(`    stand ${i}: ${r.verdict}; checkbox ${await d.read(() => document.getElementById('stand-by-stand')?.checked)}`);
      await d.waitFor('#make-move');
    }
    await d.until(() => document.getElementById('make-move')?.disabled === false, null, 10000);
    await shot(g.turn, `reform-${into}`);
    const from = await pagePos();
    await d.click('#make-move');
    await applied(from);
    await d.click('#stand-by-stand');
    await zoomOut();
    const after = (await game()).state.units.find((u) => u.id === id).stands;
    // A column: every stand on the first's line across (no offset to the side); a line: on its line ahead.
    const across = (s) => (s.x - after[0].x) * (into === 'column' ? right.x : back.x) + (s.y - after[0].y) * (into === 'column' ? right.y : back.y);
    assert.ok(after.every((s) => Math.abs(across(s)) < 0.11), `a ${into}: ${JSON.stringify(after)}`);
    log(`  ${id} re-formed into a ${into}: ${after.map((s) => `(${s.x}, ${s.y})`).join(' ')}`);
  };

  // --- The game: the pitched battle, the seed typed, the Orcs to the opponent.
  await d.waitFor('#wm-svg polygon.stand');
  if (await d.read(() => !!document.getElementById('howto-dismiss'))) await d.click('#howto-dismiss');
  // The seed is an advanced option: the menu opened first.
  if (!(await d.read(() => document.getElementById('advanced').open))) await d.click('#advanced summary');
  await d.click('#seed');
  await d.keyDown('Control'); await d.press('a'); await d.keyUp('Control');
  await d.press('Backspace');
  for (const ch of String(seed)) await d.press(ch);
  // The battle menu, by the keyboard: each step down the list opens that battle anew with the seed typed.
  const steps = await d.read(() => { const m = document.getElementById('battle'); return [...m.options].findIndex((o) => o.value === 'warmaster/pitched-battle') - m.selectedIndex; });
  // The first visit shows it already (the fair battle); a page opened on
  // another battle finds it above or below in the menu.
  assert.notEqual(steps, -1 - (await d.read(() => document.getElementById('battle').selectedIndex)), 'the pitched battle is in the menu');
  await d.focus('#battle');
  for (let i = 0; i < Math.max(1, Math.abs(steps)); ++i) {
    const before = await d.read(() => location.hash);
    if (steps === 0) await d.click('#new-game'); else await d.press(steps > 0 ? 'ArrowDown' : 'ArrowUp');
    await d.until((h) => location.hash !== h && document.getElementById('replay-label')?.textContent === 'step 0 (live)', before);
  }
  id = await gameId();
  let g = await game();
  assert.equal(g.battle, 'warmaster/pitched-battle');
  assert.equal(g.dice.seed, seed);
  // The fair battle sets the Orcs to the built-in opponent itself; set by
  // the keyboard where it did not.
  if (await d.read(() => document.getElementById('player-1').value !== 'opponent')) {
    await d.focus('#player-1');
    await d.press('ArrowDown');
  }
  await d.until(() => document.getElementById('player-1').value === 'opponent');

  let reformStage = 0, touching = false;
  for (let guard = 0; guard < 40; ++guard) {
    g = await settled();
    if (g.terminal) break;
    if (g.current_player !== EMPIRE) {
      // The opponent's turn, played by the page (the Players control).
      const turn = g.turn;
      await d.until(() => document.getElementById('battle-over') || /Empire/.test(document.getElementById('turn-line')?.textContent ?? ''), null, 60000);
      ++seen.opponentTurns;
      g = await settled();
      await shot(turn, 'opponent');
      continue;
    }
    const turn = g.turn;
    log(`turn ${turn}: ${g.phase}`);
    if (g.phase.startsWith('command')) {
      await shot(turn, 'command');
      const xbow = () => g.state.units.find((u) => u.id === 'emp-crossbow');
      const canOrder = (units) => g.legal_actions.some((a) => a.type === 'order' && a.character === 'emp-general' &&
        JSON.stringify(a.units ?? [a.unit]) === JSON.stringify(units));
      const halted = () => g.state.general_failed;
      // The second Halberdiers moved up beside the first (touching), for a brigade next turn.
      // Shot away from each other (a stand lost), they are moved up again.
      if (touching && !seen.brigadeMoved && !halted() && canOrder(['emp-halberd-1']) && !canOrder(['emp-halberd-1', 'emp-halberd-2'])) touching = false;
      const whole = (id) => g.state.units.find((u) => u.id === id)?.stands?.length === 3;
      if (!touching && !halted() && canOrder(['emp-halberd-2']) && whole('emp-halberd-1') && whole('emp-halberd-2')) {
        if (await order(['emp-halberd-2'])) {
          g = await settled();
          const h1 = g.state.units.find((u) => u.id === 'emp-halberd-1'), h2 = g.state.units.find((u) => u.id === 'emp-halberd-2');
          const right = h1.stands[2];
          await zoomOn((right.x + h2.stands[0].x) / 2, right.y);
          const r = await dragBy('emp-halberd-2', 0, h2.stands[0], right.x + 4 - h2.stands[0].x, right.y - h2.stands[0].y, (v) => v === 'legal');
          if (r.p0 !== null && r.p0 !== undefined) { await applied(r.p0); touching = true; }
          log(`  Halberdiers 2 up to Halberdiers 1: ${r.verdict} ${await d.read(() => document.getElementById('message').textContent)}`);
          await zoomOut();
        }
        g = await settled();
      } else if (touching && !seen.brigadeMoved && !halted() && canOrder(['emp-halberd-1', 'emp-halberd-2'])) {
        // The brigade: both selected (shift-click), one order, one drag moves both.
        if (await order(['emp-halberd-1', 'emp-halberd-2'])) {
          seen.brigade = true;
          g = await settled();
          const p0 = g.state.units.find((u) => u.id === 'emp-halberd-2').stands.map((s) => ({ ...s }));
          const h1 = g.state.units.find((u) => u.id === 'emp-halberd-1');
          const n = nearest(g, h1);
          const len = Math.max(0, Math.min(19.5, n.dist - 16));
          if (len >= 2) {
            const r = await dragBy('emp-halberd-1', 1, h1.stands[1], 0, len, (v) => v === 'legal');
            // A brigade moves as one body, in one move: the board must send both units' moves.
            if (r.p0 === null || r.p0 === undefined) assert.fail(`the brigade dragged as one body is refused (${r.verdict}): ${r.why}`);
            {
              await applied(r.p0);
              g = await settled();
              const p1 = g.state.units.find((u) => u.id === 'emp-halberd-2').stands;
              assert.ok(p1.every((s, i) => Math.abs(s.y - p0[i].y - len) < 0.6), `the brigade's second unit moved with the first: ${JSON.stringify(p1)}`);
              seen.brigadeMoved = true;
              log(`  the brigade moved ${len.toFixed(1)} cm`);
            }
          } else seen.brigadeMoved = true;
        }
        g = await settled();
      }
      // The re-form, one step a turn until made.
      while (reformStage < 2 && !halted() && canOrder(['emp-crossbow']) && !xbow().engaged) {
        if (!(await order(['emp-crossbow']))) { g = await settled(); break; }
        g = await settled();
        await reform(g, 'emp-crossbow', reformStage === 0 ? 'column' : 'line');
        if (reformStage === 0) seen.column = true; else seen.line = true;
        ++reformStage;
        g = await settled();
      }
      // Up to four more units toward the enemy (or into it).
      const others = ['emp-halberd-3', 'emp-knights-2', 'emp-flagellants', 'emp-knights-1', 'emp-pistoliers', 'emp-halberd-1', 'emp-halberd-2'];
      let given = 0;
      for (const id of others) {
        if (given >= 4 || halted()) break;
        if (!touching && id === 'emp-halberd-1') continue;
        if (touching && !seen.brigadeMoved && (id === 'emp-halberd-1' || id === 'emp-halberd-2')) continue;
        const unit = g.state.units.find((u) => u.id === id);
        if (!unit || unit.destroyed || unit.engaged || !unit.stands?.length || !canOrder([id])) continue;
        ++given;
        const passed = await order([id]);
        g = await settled();
        if (!passed) continue;
        await moveOrdered(g, id, g.state.pending?.move === 'half_pace');
        g = await settled();
      }
      await shot(turn, 'orders');
      await clickAction('end_phase');
      continue;
    }
    if (g.phase.startsWith('shooting')) {
      await shot(turn, 'shooting');
      const lost = (x) => x.state.units.filter((u) => u.side !== EMPIRE).reduce((a, u) => a + (u.stands_lost ?? 0) + (u.destroyed ? 10 : 0), 0);
      const had = lost(g);
      const shoot = g.legal_actions.find((a) => a.type === 'shoot');
      if (shoot) await clickAction('shoot'); else await clickAction('end_phase');
      g = await settled();
      if (lost(g) > had) {
        // The casualty shown: the Casualties panel names the Orc unit hit.
        await d.waitFor('#casualties');
        const text = await d.read(() => document.getElementById('casualties').textContent);
        assert.match(text, /Orcs of the Red Fang/, text);
        ++seen.shootingCasualty;
        log(`  shooting casualty: ${text}`);
      }
      continue;
    }
    if (g.phase.startsWith('combat')) {
      await shot(turn, 'combat');
      await d.waitFor('#combat-odds');
      const mine = await d.read(() => [...document.querySelectorAll('#combat-decisions select[data-decision^="emp-"]')].map((s) => s.dataset.decision));
      if (mine.length) {
        // A decision through the form (the keyboard on the select): the first
        // Empire unit holds its ground after a round instead of pursuing.
        await d.focus(`select[data-decision="${mine[0]}"]`);
        await d.press('s');
        await d.until((u) => document.querySelector(`select[data-decision="${u}"]`).value === 'stand', mine[0]);
        ++seen.decisions;
        // The outcome says it with the unit's name, as the form does (the engine's text, with ids, is the tooltip).
        const name = await d.read((u) => document.querySelector(`#combat-decisions select[data-decision="${u}"]`).closest('tr').firstChild.textContent, mine[0]);
        const from = await pagePos();
        await d.click('#fight-combat');
        await applied(from);
        // The outcome panel shows the combat's result and what the unit did.
        const text = await d.read(() => document.querySelector('#outcome .summary')?.textContent ?? '');
        const result = text.match(/Combat result: [^\n]*/)?.[0] ?? '';
        if (/wins by/.test(result)) ++seen.combatDecided;
        if (text.includes(`${name} stands its ground`)) ++seen.decisionsHonoured;
        log(`  combat: ${result}; ${text.match(/[^\n]*stands its ground[^\n]*/)?.[0] ?? ''}`);
        await shot(turn, 'combat-fought');
      } else {
        await clickAction('end_phase');
      }
      // The opponent's turn, played by the page (the Players control), drawn.
      g = await settled();
      if (!g.terminal) {
        await d.until((t) => document.getElementById('battle-over') ||
          (/Empire/.test(document.getElementById('turn-line')?.textContent ?? '') && document.getElementById('opponent-report')?.dataset.player === '1' &&
           Number(document.getElementById('turn-line').textContent.match(/Turn (\d+)/)[1]) > t), turn, 60000);
        ++seen.opponentTurns;
        await shot(turn, 'opponent');
      }
      continue;
    }
    throw new Error(`unexpected phase ${g.phase}`);
  }

  // --- The banner, the log saved, and the replay's result.
  await d.waitFor('#battle-over', 60000);
  g = await settled();
  await shot(g.turn, 'battle-over');
  const banner = await d.read(() => ({ winner: document.querySelector('#battle-over .outcome-head').textContent, reason: document.querySelector('#battle-over .outcome-head + div')?.textContent ?? '' }));
  // The board saves the log as a blob behind a download link it clicks: the
  // page keeps the blob's text as it is made (Blob.text needs no request,
  // which the page's policy would refuse), and the script reads it back.
  await d.read(() => {
    window.savedLog = null;
    const make = URL.createObjectURL;
    URL.createObjectURL = (blob) => { window.savedLog = blob.text(); URL.createObjectURL = make; return make.call(URL, blob); };
  });
  await d.click('#save-log');
  const text = await d.read(async () => { while (!window.savedLog) await new Promise((r) => setTimeout(r, 20)); return window.savedLog; });
  const file = path.join(shots, `${prefix}-battle.jsonl`);
  writeFileSync(file, text);
  // The decisions made through the form went with the end of the Combat phase.
  seen.decisionsLogged = text.split('\n').filter((l) => l && JSON.parse(l).action?.decisions?.length).length;
  const replay = JSON.parse(execFileSync(referee, ['warmaster', 'replay', '--log', file], { encoding: 'utf8', maxBuffer: 64 << 20 }));
  assert.equal(replay.consistent, true);
  assert.equal(replay.over, true);
  const players = g.players;
  const expected = replay.result.winner === null || replay.result.winner === undefined ? 'A draw' : `${players[replay.result.winner]} wins`;
  assert.equal(banner.winner, expected, `banner ${JSON.stringify(banner)} vs replay ${JSON.stringify(replay.result)}`);
  assert.equal(banner.reason, replay.result.reason);
  return { seen, banner, replay: replay.result, turns: g.turn, entries: replay.entries };
}

// What every whole battle must have shown, whatever the browser and size.
export function assertWholeBattle(out) {
  assert.ok(out.seen.charge >= 1, 'a charge made by dragging');
  assert.ok(out.seen.angledCharge >= 1, 'a charge dragged at an angle, landed lined up edge to edge');
  assert.ok(out.seen.column && out.seen.line, 'a re-form into a column and back into a line');
  assert.ok(out.seen.brigade && out.seen.brigadeMoved, 'a brigade order, the brigade dragged as one');
  assert.ok(out.seen.shootingCasualty >= 1, 'a Shooting phase with a casualty');
  assert.ok(out.seen.combatDecided >= 1 && out.seen.decisionsLogged >= 1, 'a combat won by one side, with a decision made through the form (in the log)');
  assert.ok(out.seen.decisionsHonoured >= 1, 'a decision made through the form carried out (a winner stands its ground)');
  assert.ok(out.seen.opponentTurns >= Math.max(1, out.turns - 2), 'the Orcs\' turns played by the built-in opponent');
}
