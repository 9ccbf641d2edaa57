import { installDebianPackage } from './installDebianPackage.ts';

/** What playwright-core's `chromium.launch` needs to drive Debian's Chromium. */
export interface ChromiumLaunch {
  readonly executablePath: string;
  readonly args: readonly string[];
}

/**
 * Debian's Chromium for the browser tests (installed with apt-get when missing), rather than a
 * browser build downloaded by Playwright: one source of system packages for every tool.
 */
export async function installChromium(log: (line: string) => void): Promise<ChromiumLaunch> {
  const executablePath = await installDebianPackage(
    {
      pkg: 'chromium',
      executable: 'chromium',
      otherwise: "install Debian's chromium package (apt-get install chromium) and run the test again",
    },
    log,
  );
  // Chromium's sandbox refuses to start as root (a container, CI); the page it opens is our own.
  return { executablePath, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] };
}
