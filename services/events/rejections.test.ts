import { validateEvent } from './index.ts';
import { exampleEvent } from '../../test/support/exampleEvents.ts';
import type { EventType } from './index.ts';

// Helpers shared by the event validation tests (not a test file itself: vitest runs only
// *.unit.test.ts, and the build leaves *.test.ts out).

/** The reason validateEvent gives for rejecting `raw`; throws when it accepts it. */
export const reasonOf = (raw: unknown): string => {
  const result = validateEvent(raw);
  if (result.ok) throw new Error(`expected a rejection, got a valid ${result.event.type}`);
  return result.reason;
};

/** The first example of `type` with `data` replaced by `edit(data)`. */
export const withData = <T extends EventType>(type: T, edit: (data: Record<string, unknown>) => unknown) => {
  const event = exampleEvent(type);
  return { ...event, data: edit({ ...event.data }) };
};
