import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { MAX_TEXT_LENGTH } from '../../schemas/api/queryParameters.ts';
import { send } from '../http/harness.test.ts';
import { httpPipeline } from '../http/httpPipeline.ts';
import { matchEndpoint } from '../http/endpointRouter.ts';
import { exceedsLength } from './exceedsLength.ts';
import { parseQuery } from './parseQuery.ts';

const TEXT_PARAMETERS = [
  ['competitions', 'search'],
  ['competitions', 'city'],
  ['competitions', 'country'],
  ['competitionsCalendar', 'search'],
  ['clubs', 'city'],
  ['clubs', 'search'],
  ['dancers', 'country'],
  ['judges', 'search'],
] as const;

describe('text parameters: at most 100 characters as sent', () => {
  it('accepts 100 characters and answers 400 naming the parameter at 101', () => {
    expect(MAX_TEXT_LENGTH).toBe(100);
    for (const [endpoint, name] of TEXT_PARAMETERS) {
      expect(parseQuery(endpoint, `${name}=${'a'.repeat(100)}`).ok, `${endpoint} ${name}`).toBe(true);
      const refused = parseQuery(endpoint, `${name}=${'a'.repeat(101)}&order=desc`);
      expect(refused).toEqual({ ok: false, details: [`${name}: must be at most 100 characters long (got "${'a'.repeat(40)}…")`] });
    }
  });

  it('counts characters (code points), not UTF-16 units or bytes', () => {
    expect(parseQuery('competitions', `search=${encodeURIComponent('😀'.repeat(100))}`).ok).toBe(true);
    expect(parseQuery('competitions', `search=${encodeURIComponent('Jā'.repeat(50))}`).ok).toBe(true);
    expect(parseQuery('competitions', `search=${encodeURIComponent('😀'.repeat(101))}`).ok).toBe(false);
  });

  it('counts the spaces a client sent, as the document reads maxLength', () => {
    expect(parseQuery('competitions', `city=${'a'.repeat(99)}%20`).ok).toBe(true);
    expect(parseQuery('competitions', `city=${'a'.repeat(100)}%20`)).toMatchObject({
      ok: false,
      details: [expect.stringMatching(/^city: /)],
    });
  });

  it('bounds each item of a type list and names the parameter', () => {
    expect(parseQuery('competitions', `type=${'a'.repeat(64)},cup`).ok).toBe(true);
    expect(parseQuery('competitions', `type=cup,${'a'.repeat(101)}`)).toEqual({
      ok: false,
      details: [`type: each item must be at most 64 characters long (got "${'a'.repeat(40)}…")`],
    });
  });

  it('refuses control characters and NUL, and keeps lone surrogates within the bound as text', () => {
    expect(parseQuery('competitions', `search=ab%00%01%1F`)).toEqual({
      ok: false,
      details: ['search: must not contain control characters (got "ab\\u0000\\u0001\\u001f")'],
    });
    // A percent-encoded lone surrogate is not UTF-8: it decodes to U+FFFD replacement characters.
    const surrogate = parseQuery('competitions', `search=ab%ED%A0%80`);
    expect(surrogate.ok && surrogate.query.search).toBe('ab\uFFFD\uFFFD\uFFFD');
    const long = parseQuery('competitions', `search=${'%00'.repeat(101)}`);
    expect(long.ok).toBe(false);
  });
});

describe('exceedsLength', () => {
  it('counts code points and stops early', () => {
    expect(exceedsLength('', 0)).toBe(false);
    expect(exceedsLength('abc', 3)).toBe(false);
    expect(exceedsLength('abcd', 3)).toBe(true);
    expect(exceedsLength('😀😀😀', 3)).toBe(false);
    expect(exceedsLength('😀😀😀a', 3)).toBe(true);
    expect(exceedsLength('\uD800\uD800\uD800', 3)).toBe(false);
    expect(exceedsLength('x'.repeat(1_000_000), 100)).toBe(true);
  });
});

describe('idOrSlug path parameter: at most 100 characters', () => {
  const app = new Koa();
  app.silent = true;
  for (const middleware of httpPipeline({ clock: () => 0, cache: { maxBytes: 1_000_000, getDataVersion: () => 'v1' } }))
    app.use(middleware);
  app.use((ctx) => (ctx.body = { data: 'found' }));

  it('answers 400 naming idOrSlug past 100 characters, on the detail and its categories', async () => {
    for (const suffix of ['', '/categories']) {
      expect((await send(app, { path: `/api/v1/competitions/${'s'.repeat(100)}${suffix}` })).status).toBe(200);
      const refused = await send(app, { path: `/api/v1/competitions/${'s'.repeat(101)}${suffix}` });
      expect(refused.status).toBe(400);
      expect(refused.json.error).toMatchObject({
        type: 'INVALID_REQUEST',
        details: [`idOrSlug: must be at most 100 characters long (got "${'s'.repeat(40)}…")`],
      });
    }
    const encoded = await send(app, { path: `/api/v1/competitions/${encodeURIComponent('ā'.repeat(100))}` });
    expect(encoded.status).toBe(200);
  });

  it('still names the endpoint for metrics and 405s, and leaves club ids at 404', async () => {
    expect(matchEndpoint(`/api/v1/competitions/${'s'.repeat(500)}`, '/api/v1')?.definition.name).toBe('competition');
    expect((await send(app, { method: 'POST', path: `/api/v1/competitions/${'s'.repeat(500)}` })).status).toBe(405);
    expect((await send(app, { path: `/api/v1/clubs/${'s'.repeat(500)}` })).status).toBe(404);
  });
});
