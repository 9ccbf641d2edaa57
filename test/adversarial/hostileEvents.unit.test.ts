import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../schemas/events/index.ts';
import { validateEvent } from '../../services/events/index.ts';
import { hostileEvents } from './hostileEvents.ts';

// The adversarial suite must feed the fold, not only the validator: its generated events are valid.
describe('hostileValidEvents', () => {
  it('gives valid events of every type, nearly all of them', { timeout: 60_000 }, () => {
    const events = hostileEvents(6, 11);
    const valid = events.filter((e) => validateEvent(e).ok);
    expect(valid.length).toBeGreaterThanOrEqual(0.9 * events.length);
    expect(new Set(valid.map((e) => e.type))).toEqual(new Set(EVENT_TYPES));
  });
});
