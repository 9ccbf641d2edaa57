import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { ROOT } from '../../infra/paths.ts';

// The commands the docs and the compose file run in the image (`node dist/projector/status.js`)
// must be in it: compiled by the runtime build (tsconfig.build.json), from a folder the build
// stage copies in, into the dist/ the final stage takes. A Dockerfile and a list of commands in,
// one sentence per problem out.

/** Every `dist/….js` script named in the given texts, once each. */
export function imageScripts(texts: readonly string[]): string[] {
  return [...new Set(texts.flatMap((text) => [...text.matchAll(/\bdist\/[\w./-]+?\.js\b/g)].map((m) => m[0])))].sort();
}

/** The Dockerfile's stages: `FROM` line and body each. */
function stages(dockerfile: string): Array<{ from: string; body: string }> {
  return dockerfile
    .split(/^FROM /m)
    .slice(1)
    .map((stage) => ({ from: stage.split('\n')[0]!.trim(), body: stage }));
}

export function imageCommandProblems(dockerfile: string, buildSources: ReadonlySet<string>, scripts: readonly string[]): string[] {
  const problems: string[] = [];
  const all = stages(dockerfile);
  const final = all.at(-1);
  const build = all.slice(0, -1).find((s) => /\bAS\s+build\b/i.test(s.from));
  for (const stage of all) {
    const image = stage.from.split(/\s+/)[0]!;
    if (!/:\d+\.\d+\.\d+(?:-[\w.-]+)?$/.test(image)) problems.push(`Dockerfile: FROM ${image} is not pinned to an exact version`);
  }
  if (!final || !/^COPY --from=build \/app\/dist dist$/m.test(final.body))
    problems.push('Dockerfile: the final stage does not copy dist/ from the build stage');
  if (!final || !/^COPY --from=build \/app\/node_modules node_modules$/m.test(final.body))
    problems.push('Dockerfile: the final stage does not copy node_modules/ from the build stage');
  if (!build || !/tsc -p tsconfig\.build\.json/.test(build.body))
    problems.push('Dockerfile: no build stage runs tsc -p tsconfig.build.json');
  for (const script of scripts) {
    const source = script.replace(/^dist\//, '').replace(/\.js$/, '.ts');
    const folder = source.split('/')[0]!;
    if (!buildSources.has(source)) problems.push(`${script}: ${source} is not compiled by tsconfig.build.json`);
    if (!build || !new RegExp(`^COPY ${folder} ${folder}$`, 'm').test(build.body))
      problems.push(`${script}: the build stage does not copy ${folder}/`);
  }
  return problems;
}

/** The sources tsconfig.build.json compiles, relative to the project (`projector/status.ts`). */
export function buildSources(): Set<string> {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  return new Set((parsed?.fileNames ?? []).map((file) => relative(ROOT, file)));
}

/** README.md, every page of docs/ and docker-compose.yml: where operators read what to run. */
export function documentedTexts(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  return ['README.md', 'docker-compose.yml', ...docs].map((file) => readFileSync(join(ROOT, file), 'utf8'));
}
