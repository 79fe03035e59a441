// Ancients' battle phase played on the board's hexes alone: a lit unit
// selected (by mouse, then by keyboard), its targets ringed, the odds shown
// on pointing or focusing being the engine's (the `targets` query), the roll
// on a click (or Enter), a retreat's hex picked on the board where the rules
// give a choice, and the outcome and banners shown.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, shot, api, openBoard } from './support.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const pct = (p) => `${(100 * p).toFixed(1)}%`;

// A small battle of the test's own, hot-seat, with the dice scripted: two
// Roman heavy infantry units face two Gallic medium infantry units, one of
// them down to its last block, in the centre of the standard board. Brought
// to the battle phase through the API: the card, the two orders, the end of
// the movement.
const scenario = {
  name: 'two fights',
  victory_banners: 5,
  players: [{ name: 'Rome', hand: ['order-three-center', 'order-medium-troops'] }, { name: 'Gauls', hand: ['order-two-left', 'order-medium-troops'] }],
  units: [
    { id: 'a1', class: 'heavy_infantry', side: 0, at: [5, 5] },
    { id: 'a2', class: 'heavy_infantry', side: 0, at: [6, 5] },
    { id: 'd1', class: 'medium_infantry', side: 1, at: [5, 4] },
    { id: 'd2', class: 'medium_infantry', side: 1, at: [6, 4], blocks: 1 },
  ],
  leaders: [],
  terrain: [],
};
// a1 at d1: a flag and four misses (1 is the light face, which misses medium
// infantry): d1 must retreat a hex, toward 4,3 or 5,3, its player's choice.
// a2 at d2: a medium face and four misses: its last block, a banner.
const dice = [6, 1, 1, 1, 1, 2, 1, 1, 1, 1];

async function battlePhase() {
  const game = await api(server, 'POST', 'games', { system: 'ancients', scenario, dice, seed: 1 });
  let view = game;
  for (const action of [{ type: 'play_card', card: 'order-three-center' }, { type: 'order', units: ['a1'] }, { type: 'order', units: ['a2'] }, { type: 'end_movement' }])
    view = (await api(server, 'POST', `games/${game.id}/apply`, { action })).game;
  assert.equal(view.state.phase, 'battle');
  return game;
}

const view = (id) => api(server, 'GET', `games/${id}`);

test('Ancients: a battle played by clicking and keying hexes: targets, the engine\'s odds, the roll, a retreat picked, banners', async () => {
  const game = await battlePhase();
  const page = await openBoard(browser, server, game);
  assert.match(await page.textContent('#an-banners'), /^Banners: Rome 0 of 5 · Gauls 0 of 5$/);
  // Only the two ordered units are lit, as buttons.
  assert.deepEqual(await page.locator('#an-svg .may-battle').evaluateAll((ms) => ms.map((m) => m.dataset.unit)), ['a1', 'a2']);
  // The battles offered in words, each unit with its class in full; the key names the badges.
  assert.ok((await page.locator('#action-list button').allTextContents()).includes('a1 (heavy infantry) battles d1 (medium infantry)'));
  assert.match(await page.textContent('#an-key'), /HI heavy infantry.*MI medium infantry/);
  assert.equal(await page.textContent('#turn-line'), 'Turn 1 · Rome · battle');

  // a1, by the mouse: its targets ringed (d1 and d2 are both next to it).
  await page.click('#an-svg .may-battle[data-unit="a1"]');
  await page.locator('#an-svg .target').first().waitFor();
  assert.deepEqual((await page.locator('#an-svg .target').evaluateAll((ms) => ms.map((m) => m.dataset.target))).sort(), ['d1', 'd2']);
  const odds = async (unit, target) => {
    const t = (await api(server, 'POST', `games/${game.id}/query`, { name: 'targets', args: { unit } })).targets.find((x) => x.target === target);
    return `${unit} battles ${target} (${t.combat} combat, ${t.dice} ${t.dice === 1 ? 'die' : 'dice'}): hits at least once ${pct(t.at_least_one_hit)} · eliminates ${pct(t.eliminate)} · forces a retreat ${pct(t.retreat)}`;
  };
  const want1 = await odds('a1', 'd1');
  // 5 dice, 2 faces of 6 hit medium infantry: 1 - (4/6)^5 = 86.8% to hit.
  assert.match(want1, /^a1 battles d1 \(close combat, 5 dice\): hits at least once 86\.8% · /);
  const ring1 = page.locator('#an-svg .target[data-target="d1"]');
  await ring1.hover();
  await page.waitForFunction((w) => document.getElementById('an-odds')?.textContent === w, want1);
  assert.equal(await ring1.getAttribute('aria-label'), `${want1}. Enter rolls.`);
  await shot(page, 'ancients-battle-odds');
  await ring1.click();
  await page.waitForSelector('#outcome .summary');
  assert.match(await page.textContent('#outcome .summary'), /^a1 rolls 5 dice at d1: 0 hits; 1 flag/);

  // d1's retreat: the two hexes ringed, one clicked.
  const choices = page.locator('#an-svg .choice');
  await choices.first().waitFor();
  assert.deepEqual((await choices.evaluateAll((ms) => ms.map((m) => m.dataset.hex))).sort(), ['4,3', '5,3']);
  // The retreat is the Gauls' choice: the controls' heading names them, not Rome whose turn it is.
  assert.equal(await page.textContent('#controls h2'), "Gauls: choose (Rome's battle)");
  await shot(page, 'ancients-battle-retreat');
  await page.click('#an-svg .choice[data-hex="4,3"]');
  await page.waitForSelector('#an-hold');
  assert.equal(await page.textContent('#controls h2'), 'Rome: battle');  // the momentum choice is Rome's
  assert.deepEqual((await view(game.id)).state.units.find((u) => u.id === 'd1').at, [4, 3]);
  // a1 may advance into the hex taken: hold.
  await page.click('#an-hold');
  await page.waitForFunction(() => !document.getElementById('an-hold'));

  // a2, by the keyboard alone: Tab to it, Enter; the first target has the
  // focus and shows its odds; Tab to d2, Enter rolls.
  await page.mouse.move(1, 1);  // the pointer out of the way: a target drawn under it would show its odds
  await page.focus('#an-svg .may-battle[data-unit="a2"]');
  await page.keyboard.press('Enter');
  await page.locator('#an-svg .target').first().waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('target')), true, 'the first target has the focus');
  let focused = await page.evaluate(() => document.activeElement.dataset.target);
  if (focused !== 'd2') {
    await page.keyboard.press('Tab');
    focused = await page.evaluate(() => document.activeElement.dataset.target);
  }
  assert.equal(focused, 'd2');
  const want2 = await odds('a2', 'd2');
  await page.waitForFunction((w) => document.getElementById('an-odds')?.textContent === w, want2);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /^a2 rolls/.test(document.querySelector('#outcome .summary')?.textContent ?? ''));
  assert.match(await page.textContent('#outcome .summary'), /^a2 rolls 5 dice at d2: 1 hit; d2 is eliminated/);
  // The banner won is shown, as the game has it.
  await page.waitForFunction(() => /Rome 1 of 5/.test(document.getElementById('an-banners')?.textContent ?? ''));
  assert.deepEqual((await view(game.id)).state.banners, [1, 0]);
  await page.click('#an-hold');
  await shot(page, 'ancients-battle-done');
  assert.deepEqual(page.errors, []);
  await page.close();
});
