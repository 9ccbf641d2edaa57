import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';

// Each test file gets names no other file (or earlier run) uses, so files can run side by side
// on the same servers and nothing leaks between runs.
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

export function testServers(): { kafkaBrokers: string[]; mongoUrl: string } {
  return { kafkaBrokers: inject('kafkaBrokers').split(','), mongoUrl: inject('mongoUrl') };
}
