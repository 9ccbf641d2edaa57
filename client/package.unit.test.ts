import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// client/package.json describes what client/tsconfig.json builds: its exports name the files the
// build writes, and it declares every package the built files import (the root's node_modules
// is not there for a consumer).

const read = (path: string): string => readFileSync(new URL(path, import.meta.url), 'utf8');
const pkg = JSON.parse(read('./package.json')) as {
  name: string;
  type: string;
  types: string;
  exports: { '.': Record<string, string> };
  dependencies: Record<string, string>;
};
// client/tsconfig.json is JSON with comments.
const tsconfig = JSON.parse(read('./tsconfig.json').replace(/^\s*\/\/.*$/gm, '')) as {
  include: string[];
  compilerOptions: { outDir: string; declaration: boolean };
};
const rootPkg = JSON.parse(read('../package.json')) as { workspaces: string[]; devDependencies: Record<string, string> };

describe('client/package.json', () => {
  it('exports the JavaScript and declarations the build writes from index.ts', () => {
    const out = `./${tsconfig.compilerOptions.outDir}`;
    expect(tsconfig.include).toContain('index.ts');
    expect(tsconfig.compilerOptions.declaration).toBe(true);
    expect(pkg.type).toBe('module');
    expect(pkg.exports['.']).toMatchObject({ types: `${out}/index.d.ts`, default: `${out}/index.js` });
    expect(pkg.types).toBe(`${out}/index.d.ts`);
  });

  it('declares every package its built files import, at the version the root installs', () => {
    const imported = tsconfig.include
      .flatMap((file) => [...read(`./${file}`).matchAll(/^import .* from '([^.][^']*)';$/gm)].map((m) => m[1]!))
      .map((specifier) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!));
    expect(new Set(imported)).toEqual(new Set(Object.keys(pkg.dependencies)));
    const locked = JSON.parse(read(`../node_modules/openapi-fetch/package.json`)) as { version: string };
    expect(pkg.dependencies['openapi-fetch']).toBe(locked.version);
  });

  it('is a workspace of the root, which does not declare the client’s dependencies a second time', () => {
    expect(rootPkg.workspaces).toContain('client');
    for (const name of Object.keys(pkg.dependencies)) expect(rootPkg.devDependencies).not.toHaveProperty(name);
  });
});
