import { randomUUID } from 'node:crypto';
import { createRandom } from '../generator/random.ts';
import { draftWith, hostileEvents, NEAR_LIMIT_BYTES, pickedTexts } from '../test/adversarial/hostileEvents.ts';
import { scriptText } from '../test/adversarial/hostileStrings.ts';
import { exampleEvent } from '../test/support/exampleEvents.ts';

// The adversarial events of test/adversarial as labelled messages, for the hostile-fold and soak
// benchmarks: the schema-generated ones with hostile text, each picked hostile text as a draft's
// description and as its name, the near-limit draft, and (for the soak's stream) messages no
// schema would produce.

export interface HostileMessage {
  label: string;
  key: string;
  value: string | Buffer | null;
}

function draft(fields: { descriptionFormatted?: string; name?: string }): Record<string, unknown> {
  const base = exampleEvent('competition.drafted') as unknown as Record<string, unknown>;
  return draftWith({ ...base, eventId: randomUUID(), aggregateId: randomUUID() }, fields);
}

const asMessage = (label: string, event: Record<string, unknown>): HostileMessage => {
  const value = JSON.stringify(event);
  return { label: `${label} (${Math.round(Buffer.byteLength(value) / 1024)} KB)`, key: String(event.aggregateId), value };
};

/** Every adversarial event: `perType` generated ones of each type, the picked drafts, the near-limit draft. */
export function hostileCatalogue(perType: number, seed: number): HostileMessage[] {
  const ofType = new Map<string, number>();
  const generated = hostileEvents(perType, seed).map((event) => {
    const n = (ofType.get(String(event.type)) ?? 0) + 1;
    ofType.set(String(event.type), n);
    return asMessage(`generated ${String(event.type)} #${n}`, event);
  });
  const picked = pickedTexts().flatMap(({ label, text }) => [
    asMessage(`draft description: ${label}`, draft({ descriptionFormatted: text })),
    asMessage(`draft name: ${label}`, draft({ name: text })),
  ]);
  const nearLimit = asMessage('draft description: near-limit CJK', draft({ descriptionFormatted: scriptText(325_000, 0x4e00, 20_000, 9) }));
  return [...generated, ...picked, nearLimit];
}

/** Messages no schema would produce: broken bytes, deep JSON, invalid values near and past the broker's limit. */
export function invalidMessages(): HostileMessage[] {
  const invalid = (label: string, value: string | Buffer | null): HostileMessage => ({
    label: `invalid: ${label}`,
    key: randomUUID(),
    value,
  });
  return [
    invalid('no value', null),
    invalid('broken UTF-8', Buffer.from([0xff, 0xfe, 0x00, 0xc3])),
    invalid('NUL before JSON', '\u0000{"type":"competition.drafted"}'),
    invalid('200,000 nested arrays', `${'['.repeat(200_000)}${']'.repeat(200_000)}`),
    invalid('600 KB unterminated', `{"x":"${'y'.repeat(600_000)}"`),
    // Accepted by the broker, too large to go to the dead-letter topic whole with its headers.
    invalid('past the dead-letter limit', 'z'.repeat(NEAR_LIMIT_BYTES + 30_000)),
  ];
}

/**
 * The message again as a new event of a new aggregate, so that sending it twice folds it twice
 * instead of answering "duplicate" (unparsable values go as they are).
 */
export function withFreshIds(message: HostileMessage): HostileMessage {
  if (typeof message.value !== 'string') return { ...message, key: randomUUID() };
  let event: unknown;
  try {
    event = JSON.parse(message.value);
  } catch {
    return { ...message, key: randomUUID() };
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return { ...message, key: randomUUID() };
  const aggregateId = randomUUID();
  return { ...message, key: aggregateId, value: JSON.stringify({ ...event, eventId: randomUUID(), aggregateId }) };
}

/** The messages in an order of `seed`, so that a stream cycling through them mixes every kind from its start. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = createRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
