import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { run } from './processes.ts';

// Tools the project takes from Debian (redis-server for the local Redis, promtool for the
// alert-rule checks): found on PATH, or installed once with apt-get.

/** The executable `name` on PATH (or in Debian's /usr/bin, /usr/sbin), or undefined. */
export function findExecutable(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/bin', '/usr/sbin'];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface DebianPackage {
  /** Debian package name (`redis-server`, `prometheus`). */
  readonly pkg: string;
  /** The executable the caller needs from it. */
  readonly executable: string;
  /** What to tell a person when apt-get cannot do it (another way to get the tool). */
  readonly otherwise: string;
}

/**
 * Returns the path of the package's executable, installing the package with apt-get first when
 * the executable is missing (apt-get needs root, or password-less sudo).
 */
export async function installDebianPackage(wanted: DebianPackage, log: (line: string) => void): Promise<string> {
  const present = findExecutable(wanted.executable);
  if (present) return present;
  log(`installing ${wanted.executable} (Debian package ${wanted.pkg}) with apt-get`);
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const apt = async (...args: string[]): Promise<void> => {
    const [command, ...rest] = [...asRoot, 'apt-get', ...args];
    // The lock timeout makes a second install (another shell, a CI step) wait for the first.
    await run(command as string, [...rest, '-o', 'DPkg::Lock::Timeout=600'], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  };
  try {
    await apt('update');
    await apt('install', '-y', '--no-install-recommends', wanted.pkg);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`could not install ${wanted.pkg} with apt-get (${why}); ${wanted.otherwise}`, { cause: error });
  }
  const installed = findExecutable(wanted.executable);
  if (!installed) throw new Error(`apt-get installed ${wanted.pkg} but no ${wanted.executable} is on PATH`);
  return installed;
}
