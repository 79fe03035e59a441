// The web board in Firefox: Debian's firefox-esr (never a downloaded browser)
// driven by puppeteer-core over WebDriver BiDi, one browser for the file. The
// essentials of the chromium tests: the default Warmaster battle and every
// bundled Ancients and Blightmeer battle load, at 1280 x 800 and at phone
// width; a Warmaster order is rolled with seed 1 and a stand dragged to a
// legal spot (green, applied) and too far (red, with the rule and reason, not
// applied); an Ancients card is played and a unit ordered; undo takes the last
// action back; a Blightmeer climb is drawn and resolved; two players and a
// spectator at three browser contexts play a turn each ("Play a friend").
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchFirefox, screenshots } from './support.mjs';
import { playWholeBattle, puppeteerDriver, assertWholeBattle } from './whole-battle.mjs';
import { playAFriend } from './play-a-friend.mjs';
import path from 'node:path';

let server, browser;
before(async () => {
  server = await startServer();
  const t0 = performance.now();
  browser = await launchFirefox();
  console.log(`${await browser.version()} launched in ${(performance.now() - t0).toFixed(0)} ms`);
});
after(async () => { await browser?.close(); server?.stop(); });

// No CSP bypass, unlike the chromium tests: the test's own probes are BiDi
// script evaluations, which the page's policy does not govern.
async function openPage(width = 1280, height = 800) {
  const page = await browser.newPage();
  await page.setViewport({ width, height });
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  // The default battle by its address (a first visit opens the fair battle).
  await page.goto(`${server.url}?seed=1#warmaster/default`);
  await page.waitForSelector('#board svg');
  return page;
}

const text = (page, selector) => page.$eval(selector, (e) => e.textContent);
const gameId = (page) => page.evaluate(() => location.hash.slice(1));
const shot = (page, name) => page.screenshot({ path: path.join(screenshots, `firefox-${name}.png`) });

async function choose(page, battle) {
  const before = await page.evaluate(() => location.hash);
  await page.select('#battle', battle);
  await page.waitForFunction((h) => location.hash !== h, {}, before);
  await page.waitForSelector('#board svg');
}

// Centre of an element on the screen.
async function centre(page, selector) {
  const box = await (await page.waitForSelector(selector)).boundingBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

test('Firefox: the default Warmaster battle and each bundled Ancients and Blightmeer battle load, at 1280 x 800 and at phone width', async () => {
  // Every Warmaster battle is checked in Chromium; here one draws that board.
  const battles = (await (await fetch(`${server.url}api/battles`)).json()).battles
    .filter((b) => b.system !== 'warmaster' || b.id === 'warmaster/default');
  assert.ok(battles.filter((b) => b.system === 'ancients').length >= 2 && battles.filter((b) => b.system === 'blightmeer').length >= 2);
  const page = await openPage();
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    await page.setViewport({ width: w, height: h });
    for (const b of battles) {
      await choose(page, b.id);
      assert.match(await text(page, '#status'), new RegExp(b.system));
      const id = { warmaster: '#wm-svg', ancients: '#an-svg', blightmeer: '#bm-svg' }[b.system];
      assert.equal((await page.$$(id)).length, 1, b.id);
      // The board is drawn at a real size, not collapsed to nothing.
      const box = await (await page.$(id)).boundingBox();
      assert.ok(box.width > 300 && box.height > 150, `${b.id} board is ${box.width} x ${box.height}`);
      if (w === 390) {
        // Nothing wider than the screen: the board scales down.
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 392, `${b.id} is ${width} px wide at phone width`);
      }
      if (['warmaster/default', 'ancients/centre_clash', 'blightmeer/town'].includes(b.id)) await shot(page, `${b.id.replace('/', '-')}-${w}`);
    }
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Firefox: Warmaster order rolled with seed 1, legal and illegal drags, undo', async () => {
  const page = await openPage();
  assert.match(await text(page, '#turn-line'), /Turn 1 · Empire of Ostland/);
  const id = await gameId(page);
  const stand = 'polygon.stand[data-unit="emp-halberd-1"][data-stand="1"]';

  // Select the Halberdiers: reach and the order's odds, as in Chromium.
  let at = await centre(page, stand);
  await page.mouse.click(at.x, at.y);
  await page.waitForSelector('#wm-svg path.reach[data-unit="emp-halberd-1"]');
  await page.waitForSelector('#order-needed');
  // Command 9, -1 for the 26.5 cm to the General: 8 or less, 26/36.
  assert.match(await text(page, '#order-needed'), /Needs 8 or less on 2D6 \(26\/36 = 72\.2%\)/);

  // Seed 1 rolls 2 and 5: passed; the dice shown are the game's.
  await page.click('#give-order');
  await page.waitForSelector('#message .rolls');
  const dice = await page.$$eval('#message .rolls span.die', (d) => d.map((e) => e.textContent));
  assert.deepEqual(dice, ['2', '5']);
  const log = await (await fetch(`${server.url}api/games/${id}/log`)).text();
  assert.deepEqual(JSON.parse(log.split('\n')[1]).rolls.map((r) => r.value), [2, 5]);

  // Drag 10 cm north: legal, green, applied on release.
  const k = await page.evaluate(() => document.getElementById('wm-svg').getScreenCTM().a);  // px per cm
  at = await centre(page, stand);
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  await page.mouse.move(at.x, at.y - 5 * k, { steps: 3 });
  await page.mouse.move(at.x, at.y - 10 * k, { steps: 3 });
  await page.waitForFunction(() => document.getElementById('wm-svg')?.dataset.dragLegal === 'true');
  assert.equal(await page.$$eval('#wm-svg .legal-pose polygon.stand', (s) => s.length) > 0, true);
  await shot(page, 'warmaster-drag-legal');
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelector('#log-list')?.children.length === 2);
  const state = await (await fetch(`${server.url}api/games/${id}`)).json();
  const moved = state.state.units.find((u) => u.id === 'emp-halberd-1').stands[1];
  assert.ok(Math.abs(moved.y - 30) < 0.6, `moved to y ${moved.y}`);

  // A second order, then a drag 30 cm north: too far, red, with the rule and reason.
  await page.mouse.click(at.x, at.y - 10 * k);
  await page.click('#give-order');
  await page.waitForFunction(() => document.querySelector('#log-list')?.children.length === 3);
  await page.waitForSelector('#message .rolls');
  at = await centre(page, stand);
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  await page.mouse.move(at.x, at.y - 30 * k, { steps: 4 });
  await page.waitForFunction(() => document.getElementById('wm-svg')?.dataset.dragLegal === 'false');
  await page.waitForSelector('#message .illegal');
  const rules = await page.$$eval('#message .rule', (r) => r.map((e) => e.textContent));
  assert.ok(rules.some((r) => r.startsWith('warmaster.')), rules.join(', '));
  assert.match(await text(page, '#message .violations'), /cm/);
  await shot(page, 'warmaster-drag-illegal');
  await page.mouse.up();
  const after2 = await (await fetch(`${server.url}api/games/${id}`)).json();
  assert.equal(after2.position, 3);  // header, two orders and a move: the refused drag is not applied
  assert.equal(after2.state.units.find((u) => u.id === 'emp-halberd-1').stands[1].y, moved.y);

  // Undo takes the second order back.
  await page.click('#undo');
  await page.waitForFunction(() => document.querySelector('#log-list').children.length === 2);
  assert.equal((await (await fetch(`${server.url}api/games/${id}`)).json()).position, 2);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Firefox: Ancients card played, the units it orders lit, one ordered, undo', async () => {
  const page = await openPage();
  // As the battle's file deals the cards (the worked example's hand), from
  // the Advanced battle settings the address fills in.
  await page.goto(`${server.url}?seed=1&settings=${encodeURIComponent('{"deal": "as_listed"}')}#ancients/centre_clash`);
  await page.waitForSelector('#an-svg');
  const id = await gameId(page);
  assert.match(await text(page, '#turn-line'), /Rome · play a card/);
  await page.click('button[data-card="order-three-center"]');
  await page.waitForSelector('#play-card');
  // "Order Three Units Center": the lit units are the ones the card may order.
  // Asked as the page's player: in a game with hidden cards a question is the player to play's alone.
  const seat = await page.evaluate((g) => JSON.parse(localStorage.getItem(`referee.seats.${g}`) ?? '[]').map((t) => t.token).join(','), id);
  const plan = await (await fetch(`${server.url}api/games/${id}/query`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Referee-Seat': seat }, body: JSON.stringify({ name: 'orders', args: { card: 'order-three-center' } }) })).json();
  assert.equal(plan.orders, 3);
  assert.equal(await page.$$eval('#an-svg .piece rect[stroke="#ffd400"]', (r) => r.length), plan.units.length);
  assert.equal(await page.$$eval('#an-svg .leader.lit', (r) => r.length), plan.leaders.length);
  await page.click('#play-card');
  await page.waitForFunction(() => /movement/.test(document.getElementById('turn-line').textContent));
  const unit = plan.units[0].id;
  await page.click(`#an-svg rect[data-unit="${unit}"]`);
  await page.click('#give-orders');
  await page.waitForFunction(() => document.querySelectorAll('#log-list li').length === 2);
  await page.click(`#an-svg rect[data-unit="${unit}"]`);
  await page.waitForSelector('#an-svg polygon.destination');
  await shot(page, 'ancients-destinations');
  await page.click('#undo');
  await page.waitForFunction(() => document.querySelectorAll('#log-list li').length === 1);
  assert.equal((await (await fetch(`${server.url}api/games/${id}`)).json()).position, 1);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Firefox: Blightmeer climb onto the inn drawn, its check shown, resolved with dice', async () => {
  const page = await openPage();
  await choose(page, 'blightmeer/town');
  const svgPoint = (x, y) => page.evaluate((x, y) => {
    const s = document.getElementById('bm-svg');
    const p = s.createSVGPoint();
    p.x = x; p.y = 36 - y;
    const q = p.matrixTransform(s.getScreenCTM());
    return { x: q.x, y: q.y };
  }, x, y);
  await page.click('#bm-svg circle[data-unit="captain"]');
  await page.waitForSelector('#bm-svg g.reach rect');
  await page.click('button[data-step="climb"]');
  const to = await svgPoint(4.5, 7);
  await page.mouse.click(to.x, to.y);
  await page.waitForSelector('#bm-report');
  // A 3" wall climbed by a Move 6, Agility 8 captain: 4" spent, one climb check at 13/20.
  assert.match(await text(page, '#bm-report'), /Legal: 4" of 6" used/);
  assert.match(await text(page, '#controls'), /climb check, Agility 8 \(13\/20 = 65\.0%\); if it fails, stays at the foot/);
  await shot(page, 'blightmeer-climb');
  await page.click('#bm-resolve');
  await page.waitForSelector('#message .rolls');
  assert.ok((await page.$$('#message .rolls span.die')).length >= 1);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The whole pitched battle against the built-in opponent, pointer and
// keyboard only, as in Chromium (whole-battle.test.mjs), at both sizes.
for (const [width, height] of [[1280, 800], [390, 844]]) {
  test(`Firefox, ${width} x ${height}: a whole pitched battle against the built-in opponent, pointer and keyboard only`, { timeout: 600000 }, async () => {
    const page = await openPage(width, height);
    const t0 = performance.now();
    const out = await playWholeBattle({ d: puppeteerDriver(page), server: server.url, referee: process.env.REFEREE, shots: screenshots,
      prefix: `${width}x${height}-firefox`, log: process.env.WHOLE_LOG ? console.log : () => {} })
      .catch(async (e) => { await shot(page, `${width}x${height}-whole-battle-failed`); throw e; });
    console.log(`Firefox ${width} x ${height}: ${out.turns} turns, ${out.entries} log entries in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${JSON.stringify(out.seen)}; ${out.banner.winner} — ${out.banner.reason}`);
    assertWholeBattle(out);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

// Play a friend, as in Chromium (play-a-friend.test.mjs): three browser
// contexts, a whole turn each, every action seen live on the other boards.
test('Firefox: Play a friend: A invites B, C watches; a whole turn each, seen live on the other boards; C and B refused where the seat is not theirs', { timeout: 180000 }, async () => {
  const person = async (url) => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    return { d: puppeteerDriver(page), errors, close: () => context.close() };
  };
  const out = await playAFriend({ person, server: server.url, shots: screenshots, prefix: 'firefox-friend' });
  console.log(`Firefox: ${out.actions} actions; another board drew each ${out.lag.median} ms (median; at most ${out.lag.max} ms, ${out.lag.n} draws) after the acting board`);
});
