import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOOLS } from './paths.ts';
import { run } from './processes.ts';

// Schemathesis, the OpenAPI fuzzer the test run points at the API, from PyPI into its own
// virtual environment under .tools (git-ignored, reused across runs). Pinned exactly: a new
// release may add checks, and the run must only change when we change the pin.
export const SCHEMATHESIS_VERSION = '4.32.5';

const ROOT = join(TOOLS, 'schemathesis');
const VENV = join(ROOT, 'venv');
/** Written last, naming the version: a venv without it (interrupted, older pin) is rebuilt. */
const STAMP = join(VENV, `.installed-${SCHEMATHESIS_VERSION}`);

/** The `st` command of the pinned schemathesis, installed with python3 -m venv and pip when missing. */
export async function installSchemathesis(log: (line: string) => void): Promise<string> {
  const st = join(VENV, 'bin', 'st');
  if (existsSync(STAMP) && existsSync(st)) return st;
  // Built where it stays (a venv's scripts name its interpreter by absolute path); the stamp,
  // written last, is what says it is complete.
  rmSync(VENV, { recursive: true, force: true });
  mkdirSync(ROOT, { recursive: true });
  log(`installing schemathesis ${SCHEMATHESIS_VERSION} with pip into .tools/schemathesis (once)`);
  try {
    await run('python3', ['-m', 'venv', VENV]);
  } catch (error) {
    throw new Error(
      `python3 -m venv failed: install Python 3.11 or newer (what schemathesis needs) with its venv module (Debian: python3-venv)\n${String(error)}`,
      { cause: error },
    );
  }
  await run(join(VENV, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`]);
  if (!existsSync(st)) throw new Error(`pip installed schemathesis ${SCHEMATHESIS_VERSION} but ${st} is missing`);
  writeFileSync(STAMP, new Date().toISOString());
  return st;
}
