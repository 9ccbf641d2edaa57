import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';
import { describe, expect, it } from 'vitest';
import { REFERENCE_PAGE_ASSET_FILES } from '../../schemas/api/referencePage.ts';
import { matchEndpoint } from '../http/index.ts';
import { referencePage, referencePageHtml } from './referencePage.ts';
import { REFERENCE_PAGE_SCRIPT } from './referencePageScript.ts';
import { changesExampleCode } from './changesExample.ts';

const options = { basePath: '/api/v1', title: 'Calendar & Registry API' };

describe('referencePageHtml', () => {
  const html = referencePageHtml(options);
  const urls = [...html.matchAll(/(?:src|href|data-openapi-url)="([^"]*)"/g)].map((m) => m[1] ?? '');

  it('loads only files of the reference page from this origin, and no inline script or style', () => {
    const assets = urls.filter((url) => url.startsWith('/api/v1/docs/assets/'));
    expect(assets.map((url) => url.slice('/api/v1/docs/assets/'.length)).sort()).toEqual([...REFERENCE_PAGE_ASSET_FILES].sort());
    for (const url of assets) expect(matchEndpoint(url, '/api/v1')?.definition.name, url).toBe('referencePageAsset');
    expect(urls.filter((url) => !url.startsWith('/api/v1/docs/assets/'))).toEqual(['/api/v1/openapi.json', '/api/v1/openapi.json']);
    expect(html.match(/<script\b[^>]*>/g)).toEqual([
      '<script src="/api/v1/docs/assets/swagger-ui-bundle.js" defer>',
      '<script src="/api/v1/docs/assets/referencePage.js" defer>',
      '<script src="/api/v1/docs/assets/changesExample.js" defer>',
    ]);
    expect(html).not.toMatch(/<script[^>]*>[^<]/);
    expect(html).not.toMatch(/<style|style=/);
  });

  it('points Swagger UI at the served OpenAPI document and escapes the title', () => {
    expect(html).toContain('<div id="swagger-ui" data-openapi-url="/api/v1/openapi.json"></div>');
    expect(html).toContain('<title>Calendar &amp; Registry API — reference</title>');
  });
});

describe('referencePage', () => {
  const reference = referencePage(options);
  const dist = getAbsoluteFSPath();

  it('serves the files of swagger-ui-dist byte for byte with their media types', () => {
    expect(reference.asset('swagger-ui.css').bytes.equals(readFileSync(join(dist, 'swagger-ui.css')))).toBe(true);
    expect(reference.asset('swagger-ui.css').contentType).toBe('text/css; charset=utf-8');
    expect(reference.asset('swagger-ui-bundle.js').bytes.equals(readFileSync(join(dist, 'swagger-ui-bundle.js')))).toBe(true);
    expect(reference.asset('swagger-ui-bundle.js').contentType).toBe('text/javascript; charset=utf-8');
    expect(reference.asset('favicon-32x32.png').contentType).toBe('image/png');
    expect(reference.asset('referencePage.js').bytes.toString('utf8')).toBe(REFERENCE_PAGE_SCRIPT);
    expect(reference.page.contentType).toBe('text/html; charset=utf-8');
    expect(reference.page.bytes.toString('utf8')).toBe(referencePageHtml(options));
  });

  it('has a body for every allow-listed file and none for another name', () => {
    for (const file of REFERENCE_PAGE_ASSET_FILES) expect(reference.asset(file).bytes.length, file).toBeGreaterThan(100);
    for (const file of ['index.html', '../package.json', 'swagger-ui.js', ''])
      expect(() => reference.asset(file)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });

  it('keeps the initializer and the example free of anything the Content-Security-Policy forbids', () => {
    for (const script of [REFERENCE_PAGE_SCRIPT, reference.asset('changesExample.js').bytes.toString('utf8')]) {
      expect(script).not.toMatch(/\beval\b|new Function|innerHTML|https?:/);
      // Compiled, not run: a syntax error would only show in the browser.
      expect(() => new Script(script)).not.toThrow();
    }
  });

  it('runs the change feed example it shows, on the feed of its own base path', () => {
    const code = changesExampleCode('/api/v1/changes');
    expect(code).toContain('new EventSource("/api/v1/changes?after=" + meta.latest)');
    const shown = reference.page.bytes.toString('utf8');
    const unescape = (text: string) =>
      text.replaceAll('&quot;', '"').replaceAll('&gt;', '>').replaceAll('&lt;', '<').replaceAll('&amp;', '&');
    expect(unescape(/<pre><code>([^<]*)<\/code><\/pre>/.exec(shown)?.[1] ?? '')).toBe(code);
    const served = reference.asset('changesExample.js').bytes.toString('utf8');
    const runs = code
      .split('\n')
      .map((line) => (line === '' ? line : `    ${line}`))
      .join('\n');
    expect(served).toContain(runs);
    const elsewhere = referencePage({ ...options, basePath: '/feeds/v1' });
    expect(elsewhere.asset('changesExample.js').bytes.toString('utf8')).toContain(
      'new EventSource("/feeds/v1/changes?after=" + meta.latest)',
    );
  });
});
