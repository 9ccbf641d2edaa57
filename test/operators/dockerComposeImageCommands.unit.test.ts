import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/paths.ts';
import { buildSources, documentedTexts, imageCommandProblems, imageScripts } from './dockerComposeImageCommands.ts';

const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

describe('the commands documented for the image', () => {
  const scripts = imageScripts(documentedTexts());

  it('include the processes and the operators’ commands', () => {
    expect(scripts).toEqual(
      expect.arrayContaining([
        'dist/api/main.js',
        'dist/projector/main.js',
        'dist/projector/status.js',
        'dist/projector/rebuild.js',
        'dist/generator/cli.js',
      ]),
    );
  });

  it('are all built into the image', () => {
    expect(imageCommandProblems(dockerfile, buildSources(), scripts)).toEqual([]);
  });

  // The check is only worth having if it fails: each mistake below is one it must name.
  const mistakes: Array<[string, string, string[], RegExp]> = [
    [
      'a script that is not built',
      dockerfile,
      ['dist/projector/nowhere.js'],
      /projector\/nowhere.ts is not compiled by tsconfig.build.json/,
    ],
    [
      'a folder the build stage leaves out',
      dockerfile,
      ['dist/bench/api.js'],
      /dist\/bench\/api.js: the build stage does not copy bench\//,
    ],
    [
      'a final stage without dist/',
      dockerfile.replace('COPY --from=build /app/dist dist\n', ''),
      [],
      /the final stage does not copy dist\//,
    ],
    [
      'a floating base image',
      dockerfile.replaceAll(/node:24\.\d+\.\d+-bookworm-slim/g, 'node:24-bookworm-slim'),
      [],
      /FROM node:24-bookworm-slim is not pinned/,
    ],
  ];
  it.each(mistakes)('names %s', (_, text, named, expected) => {
    expect(imageCommandProblems(text, buildSources(), named).join('\n')).toMatch(expected);
  });
});
