import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_VERSION } from './version.ts';

// client/package.json describes what client/tsconfig.json builds and `npm pack` ships: its exports
// name the files the build writes, the build runs before every pack, and the built files import
// nothing but each other (the package has no dependencies: a consumer installs it alone).

const read = (path: string): string => readFileSync(new URL(path, import.meta.url), 'utf8');
const pkg = JSON.parse(read('./package.json')) as {
  name: string;
  version: string;
  type: string;
  main: string;
  types: string;
  files: string[];
  scripts: Record<string, string>;
  exports: { '.': Record<string, string> };
  dependencies?: Record<string, string>;
};
// client/tsconfig.json is JSON with comments.
const tsconfig = JSON.parse(read('./tsconfig.json').replace(/^\s*\/\/.*$/gm, '')) as {
  include: string[];
  compilerOptions: { outDir: string; declaration: boolean };
};
const rootPkg = JSON.parse(read('../package.json')) as { workspaces: string[] };

describe('client/package.json', () => {
  it('exports the JavaScript and declarations the build writes from index.ts, for ESM consumers', () => {
    const out = `./${tsconfig.compilerOptions.outDir}`;
    expect(tsconfig.include).toEqual(expect.arrayContaining(['index.ts', 'schema.ts', 'example.ts']));
    expect(tsconfig.compilerOptions.declaration).toBe(true);
    expect(pkg.type).toBe('module');
    expect(pkg.exports['.']).toMatchObject({ types: `${out}/index.d.ts`, default: `${out}/index.js` });
    // `types` comes before `default`: TypeScript takes the first condition that matches.
    const conditions = Object.keys(pkg.exports['.']);
    expect(conditions.indexOf('types')).toBeLessThan(conditions.indexOf('default'));
    expect([pkg.types, pkg.main]).toEqual([`${out}/index.d.ts`, `${out}/index.js`]);
  });

  it('builds before it is packed and ships the build and its example', () => {
    expect(pkg.scripts.prepack).toContain('tsc -p tsconfig.json');
    expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'example.ts', 'CHANGELOG.md']));
  });

  it('has no dependencies: its built files import only each other (fetch and AbortSignal are the runtime’s)', () => {
    expect(pkg.dependencies ?? {}).toEqual({});
    const built = tsconfig.include.filter((file) => file !== 'example.ts');
    const imported = built.flatMap((file) => [...read(`./${file}`).matchAll(/^(?:import|export) .* from '([^']*)';$/gm)].map((m) => m[1]!));
    expect(imported.filter((specifier) => !specifier.startsWith('./'))).toEqual([]);
    expect(read('./example.ts')).toMatch(/from 'federation-read-client';/);
  });

  it('names the version its User-Agent carries, and is a workspace of the root', () => {
    expect(CLIENT_VERSION).toBe(pkg.version);
    expect(rootPkg.workspaces).toContain('client');
  });
});
