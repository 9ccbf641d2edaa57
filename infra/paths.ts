import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The project folder: the nearest one above this file with a package.json (also from dist/). */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(resolve(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

// Everything local lives under two git-ignored folders: .tools (installed once, reused) and
// .run (server data, logs, pid files).
export const ROOT = projectRoot(resolve(import.meta.dirname, '..'));
export const TOOLS = resolve(ROOT, '.tools');
export const RUN = resolve(ROOT, '.run');

export const paths = {
  kafkaPom: resolve(ROOT, 'infra/kafka/pom.xml'),
  kafkaLibs: resolve(TOOLS, 'kafka/libs'),
  kafkaInstalledStamp: resolve(TOOLS, 'kafka/libs/.installed'),
  kafkaRun: resolve(RUN, 'kafka'),
  secantusBinary: resolve(TOOLS, 'secantusdb/bin/secantusd-rs'),
  secantusRun: resolve(RUN, 'secantusdb'),
};
