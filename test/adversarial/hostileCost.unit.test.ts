import { describe } from 'vitest';
import * as grown from './growingAggregates.ts';
import { bySize, deadLetterAll, doublingCostTests, projecting, type CostCase } from './hostileCost.ts';

// Doubling a hostile input costs at most about 2.5x the time and the bytes written: the families
// whose work is sized to the event (hostileCost.ts says how it is measured).

const cases: CostCase[] = [
  { name: 'entries into one competition', n: 1_000, apply: projecting((size) => grown.competitionOfEntries(1, size, 200)) },
  // Each link to another club: the person's links are records of their own (format 6).
  { name: 'link changes of one person, each with another club', n: 4_000, apply: projecting((size) => grown.personOfLinks(1, size, size)) },
  // Up to one event's worth: a competition's name and a category's, a person's, a club's.
  ...grown.SCRIPT_NAMES.map((script) => ({
    name: `names in ${script}`,
    n: Math.floor(grown.longestName(script) / 2),
    apply: projecting((size) => grown.longNames(1, script, size)),
  })),
  { name: 'keys of a banner', n: 25_000, apply: projecting((size) => grown.manyKeys(1, size)) },
  {
    name: 'unexpected keys of one message',
    n: 25_000,
    apply: (
      (input) => (size: number) =>
        deadLetterAll([input(size).value], input(size).key)
    )(bySize((size) => grown.manyUnexpectedKeys(1, size))),
  },
  {
    name: 'a storm of invalid messages on one key',
    n: 5_000,
    apply: (
      (input) => (size: number) =>
        deadLetterAll(
          input(size).messages.map((m) => m.value),
          input(size).key,
        )
    )(bySize((size) => grown.errorStorm(1, size))),
  },
];

describe('doubling a hostile input sized to the event', () => {
  doublingCostTests(cases);
});
