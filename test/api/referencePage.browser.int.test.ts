import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installChromium } from '../../infra/installChromium.ts';
import { RUN } from '../../infra/paths.ts';
import { ENDPOINTS, LISTED_ENDPOINT_NAMES } from '../../schemas/api/index.ts';
import { openDatabase, type Database } from './apiHarness.ts';
import { NOW, calendarEvents } from './calendarSeed.ts';
import type { Listening } from './listenOnFreePort.ts';
import { startApiOnPort } from './startApiOnPort.ts';

// The reference page in a real browser (Debian's Chromium, headless, driven by playwright-core):
// the app on a real port whose public URL is that port, so "Try it out" calls the same origin
// the page came from, as in production. No CSP is bypassed: a violation is a failure.

const OUTPUT = join(RUN, 'test-output');
const SCREENSHOT = join(OUTPUT, 'reference-page.png');
const TRY_IT_OUT_SCREENSHOT = join(OUTPUT, 'reference-page-try-it-out.png');

let database: Database;
let server: Listening;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  // The first run on a fresh machine installs Chromium with apt-get: minutes, not seconds.
  const launch = await installChromium((line) => console.log(line));
  database = await openDatabase('api_reference_browser');
  await database.project(calendarEvents, NOW);
  // Its API_PUBLIC_URL is its own origin (known only once it listens).
  server = await startApiOnPort(database.db, NOW, (own) => ({ API_PUBLIC_URL: own }));
  origin = server.origin;
  browser = await chromium.launch({ executablePath: launch.executablePath, args: [...launch.args], headless: true });
}, 900_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await database?.drop();
});

interface PageProblems {
  consoleErrors: string[];
  pageErrors: string[];
  cspViolations: string[];
  failedRequests: string[];
  otherOrigins: string[];
}

/** A page that records everything that would mean the reference page is broken or leaks. */
async function watchedPage(): Promise<{ page: Page; problems: PageProblems }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: PageProblems = { consoleErrors: [], pageErrors: [], cspViolations: [], failedRequests: [], otherOrigins: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => problems.pageErrors.push(error.message));
  page.on('requestfailed', (request) => problems.failedRequests.push(`${request.url()}: ${request.failure()?.errorText ?? ''}`));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith('data:')) problems.otherOrigins.push(url);
  });
  await page.exposeFunction('reportCspViolation', (violation: string) => problems.cspViolations.push(violation));
  // Injected by the browser's devtools protocol, so the page's own policy does not apply to it
  // (a string: the project's type check has no DOM library).
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (event) => {
      window.reportCspViolation(event.effectiveDirective + ' blocked ' + (event.blockedURI || '(inline)') + ' at ' + event.sourceFile + ':' + event.lineNumber);
    });`,
  });
  return { page, problems };
}

describe('the reference page in Chromium', () => {
  it('renders every endpoint, runs GET /competitions against the same origin, and breaks no rule of its policy', async () => {
    const { page, problems } = await watchedPage();
    const response = await page.goto(`${origin}/api/v1/docs`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/^default-src 'none'; script-src 'self'/);
    await page.locator('.swagger-ui .information-container .title').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('.opblock').count(), { timeout: 30_000 }).toBe(LISTED_ENDPOINT_NAMES.length * 2);

    // Every endpoint of the catalogue, with both its methods, as Swagger UI shows it.
    for (const name of LISTED_ENDPOINT_NAMES) {
      const { path, tag } = ENDPOINTS[name];
      const suffix = name.charAt(0).toUpperCase() + name.slice(1);
      for (const method of ['get', 'head']) {
        const block = page.locator(`#operations-${tag}-${method}${suffix}`);
        await expect.poll(() => block.count(), { message: `${method} ${path}` }).toBe(1);
        expect(await block.locator('.opblock-summary-method').innerText(), `${method} ${path}`).toBe(method.toUpperCase());
        expect(await block.locator('.opblock-summary-path').getAttribute('data-path'), `${method} ${path}`).toBe(path);
      }
    }

    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    // One request from the page: GET /competitions with its default parameters.
    const operation = page.locator('#operations-Calendar-getCompetitions');
    await operation.locator('.opblock-summary').first().click();
    await operation.locator('button.try-out__btn').click();
    const sent = page.waitForResponse(
      (res) => res.url().startsWith(`${origin}/api/v1/competitions?`) || res.url() === `${origin}/api/v1/competitions`,
    );
    await operation.locator('button.execute').click();
    const answered = await sent;
    expect(answered.status()).toBe(200);
    const status = operation.locator('.live-responses-table .response .response-col_status').first();
    await expect.poll(() => status.innerText(), { timeout: 15_000 }).toBe('200');
    await expect
      .poll(() => operation.locator('.live-responses-table .response .response-col_description').first().innerText())
      .toContain('Riga Open 2025');
    const liveResponse = operation.locator('.live-responses-table .response').first();
    await liveResponse.scrollIntoViewIfNeeded();
    await page.screenshot({ path: TRY_IT_OUT_SCREENSHOT });

    expect(problems).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [], failedRequests: [], otherOrigins: [] });

    // The watch works: an inline style, which the policy forbids, is reported.
    await page.evaluate(
      `document.head.appendChild(Object.assign(document.createElement('style'), { textContent: 'body { color: red; }' }))`,
    );
    await expect.poll(() => problems.cspViolations).toEqual([expect.stringMatching(/^style-src-elem blocked inline/)]);
    await page.context().close();
  });
});
