import { resolve } from 'node:path';

// Everything local lives under two git-ignored folders: .tools (installed once, reused) and
// .run (server data, logs, pid files).
export const ROOT = resolve(import.meta.dirname, '..');
export const TOOLS = resolve(ROOT, '.tools');
export const RUN = resolve(ROOT, '.run');

export const paths = {
  kafkaPom: resolve(ROOT, 'infra/kafka/pom.xml'),
  kafkaLibs: resolve(TOOLS, 'kafka/libs'),
  kafkaInstalledStamp: resolve(TOOLS, 'kafka/libs/.installed'),
  kafkaRun: resolve(RUN, 'kafka'),
  ferretBinary: resolve(TOOLS, 'ferretdb/ferretdb'),
  ferretRun: resolve(RUN, 'ferretdb'),
};
