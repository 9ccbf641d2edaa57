import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installChromium } from '../../infra/installChromium.ts';
import { competitionId } from './eventBuilders.ts';
import { changeFeedRig, type ChangeFeedRig } from './changeFeedRig.ts';

// The reference page's change feed example in a real browser (Debian's Chromium, headless, driven
// by playwright-core), against the API and the real projector on real Kafka: the page follows the
// feed with the EventSource code it shows; the test makes changes, cuts the stream at the
// network (a proxy between browser and API) and checks that the browser resumed from the last
// cursor it had (Last-Event-ID) and showed every change once, in the feed's order.

let rig: ChangeFeedRig;
let browser: Browser;

beforeAll(async () => {
  // The first run on a fresh machine installs Chromium with apt-get: minutes, not seconds.
  const launch = await installChromium((line) => console.log(line));
  rig = await changeFeedRig('browser-feed');
  browser = await chromium.launch({ executablePath: launch.executablePath, args: [...launch.args], headless: true });
}, 900_000);
afterAll(async () => {
  await browser?.close();
  await rig?.close();
});

describe('the change feed example of the reference page in Chromium', () => {
  it('shows changes as they come, and resumes with Last-Event-ID after the stream is cut', { timeout: 120_000 }, async () => {
    // Changes made before the page opens: the example follows from meta.latest, so not these.
    await rig.publish(1);
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      // The cut stream is the one failure the browser may report.
      if (message.type() === 'error' && !/ERR_(EMPTY_RESPONSE|CONNECTION_RESET|INCOMPLETE_CHUNKED_ENCODING)/.test(message.text()))
        problems.push(message.text());
    });
    await page.goto(`${rig.origin}/api/v1/docs`);
    const section = page.locator('#changes-example');
    const state = section.locator('output');
    const items = section.locator('ol > li');
    const shown = async (): Promise<string[]> => (await items.allInnerTexts()).map((text) => text.split(' ').slice(1).join(' ')).reverse();
    const cursors = async (): Promise<string[]> =>
      (await Promise.all((await items.all()).map(async (li) => (await li.getAttribute('data-cursor')) ?? ''))).reverse();

    await expect.poll(() => rig.feed().then((feed) => feed.length), { timeout: 30_000 }).toBeGreaterThan(0);
    await section.locator('button[name="follow"]').click();
    await expect.poll(() => state.textContent(), { timeout: 15_000 }).toBe('open');
    const firstStream = rig.proxy.heads.filter((head) => head.startsWith('GET /api/v1/changes?after=')).length;
    expect(firstStream).toBe(1);

    await rig.publish(2);
    await rig.rename(2, 'Renamed live');
    await expect
      .poll(shown, { timeout: 30_000 })
      .toEqual([`created competition ${competitionId(2)}`, `changed competition ${competitionId(2)}`]);
    const lastBeforeCut = (await cursors()).at(-1)!;

    // The network drops the stream; changes are made while the browser is cut off.
    expect(rig.proxy.drop()).toBeGreaterThan(0);
    await rig.publish(3);
    await rig.rename(1, 'Renamed while cut off');
    await expect
      .poll(shown, { timeout: 30_000 })
      .toEqual([
        `created competition ${competitionId(2)}`,
        `changed competition ${competitionId(2)}`,
        `created competition ${competitionId(3)}`,
        `changed competition ${competitionId(1)}`,
      ]);
    await expect.poll(() => state.textContent()).toBe('open');

    // The browser reopened the same URL and named the last cursor it had received.
    const streams = rig.proxy.heads.filter((head) => head.startsWith('GET /api/v1/changes?after='));
    expect(streams).toHaveLength(2);
    expect(streams[1]).toMatch(new RegExp(`\\r\\nlast-event-id: ${lastBeforeCut.replace('.', '\\.')}\\r\\n`, 'i'));
    // Exactly the feed's changes after the cursor the page started from, each once, in order.
    const feed = await rig.feed();
    const started = feed.findIndex((c) => c.id === competitionId(2));
    expect(await cursors()).toEqual(feed.slice(started).map((c) => c.cursor));
    expect(problems).toEqual([]);
    await page.close();
  });
});
