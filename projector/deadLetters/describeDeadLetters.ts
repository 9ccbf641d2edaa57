import { sourceLabel, type DeadLetterGroup } from './deadLetterEntry.ts';

/**
 * The listing `npm run dead-letters` prints: one block per source message, oldest position first,
 * then what to do with them; `republish` is the command as this process was started (the image
 * has no npm scripts).
 */
export function describeDeadLetters(
  groups: readonly DeadLetterGroup[],
  dlqTopic: string,
  republish = 'npm run dead-letters -- republish',
): string[] {
  if (groups.length === 0) return [`no dead letters in ${dlqTopic}`];
  const copies = groups.reduce((n, g) => n + g.copies - 1, 0);
  const lines = [
    `${groups.length} dead letter${groups.length === 1 ? '' : 's'} in ${dlqTopic}` +
      (copies > 0 ? ` (and ${copies} more cop${copies === 1 ? 'y' : 'ies'} of them, dead-lettered again by a rebuild or a restart)` : ''),
  ];
  for (const { latest, copies: n } of groups) {
    const where = `${latest.source.topic ?? '(unknown topic)'} ${sourceLabel(latest.source)}`;
    const size = latest.carriesEvent
      ? `${latest.size} bytes`
      : `${latest.size} bytes, not kept (too large; the original stays in the topic)`;
    lines.push(`${where}  ${latest.at ?? '(unknown time)'}  key ${latest.key ?? '(none)'}  ${size}${n > 1 ? `  (${n} copies)` : ''}`);
    for (const line of latest.reason.split('\n')) lines.push(`    ${line}`);
  }
  lines.push(
    `A producer's mistake stays here as the record; once a fixed projector can fold the others, republish them: ${republish} <partition>:<offset> ... (or --all)`,
  );
  return lines;
}

/** The same as JSON lines, for scripts. */
export function deadLettersAsJson(groups: readonly DeadLetterGroup[]): string[] {
  return groups.map(({ latest, copies }) =>
    JSON.stringify({
      source: latest.source,
      deadLetter: latest.dlq,
      at: latest.at,
      key: latest.key,
      size: latest.size,
      carriesEvent: latest.carriesEvent,
      reason: latest.reason,
      copies,
    }),
  );
}
