import type { Random } from './random.ts';
import { DAY, calendarDate } from './time.ts';

export interface DescriptionInput {
  readonly random: Random;
  readonly name: string;
  readonly city: string;
  readonly venue: string;
  readonly start: number;
  readonly end: number;
  readonly deadline: number | null;
}

type Section = (input: DescriptionInput) => string;

// Organisers write Markdown by hand: headings, lists, links and emphasis in varying mixes, so
// the projector's Markdown-to-text step meets all of them.
const SECTIONS: readonly Section[] = [
  ({ start, end }) => {
    const days = Math.round((end - start) / DAY) + 1;
    const lines = Array.from({ length: days }, (_, i) => {
      const groups = ['Juvenile, Junior I and Junior II', 'Youth, Adult and U21', 'Senior I–IV and Pro-Am'][i % 3];
      return `- **${calendarDate(start + i * DAY)}**: ${groups}`;
    });
    return `### Schedule\n\n${lines.join('\n')}\n\nDoors open at *08:30*; the first round starts at *10:00*.`;
  },
  ({ deadline }) =>
    `### Entries\n\n1. Register through the [federation portal](https://portal.dancefed.example/entries).\n` +
    `2. Pay the starting fee (**25 EUR** per couple and category).\n3. Check the start list before ${deadline === null ? 'the event' : calendarDate(deadline)}.`,
  ({ venue, city }) =>
    `### Venue\n\n${venue}, ${city}. Parking is free; see the [map](https://maps.example/?q=${encodeURIComponent(venue)}).\n\n> Spectators: tickets at the door, children under 7 free.`,
  () =>
    `### Judges and rules\n\nAdjudicated under the *WDSF Competition Rules* with the **Skating System**. ` +
    `Dress code as in the [federation rules](https://dancefed.example/rules#dress-code).`,
  () => `### Hotels\n\n- Hotel Astra: 10% off with the code \`DANCE\`\n- Hostel Ritmo: _walking distance_ from the venue`,
  () => `### Prizes\n\nCups and medals for the finalists, **prize money** in the Adult and Professional finals.`,
];

export function describeCompetition(input: DescriptionInput): string {
  const { random, name, city } = input;
  const intro = random.pick([
    `## ${name}\n\nWelcome to **${name}** in ${city}!`,
    `## Welcome\n\nWe are happy to invite all couples to *${name}*.`,
    `Join us in **${city}** for ${name}: two floors, live music in the finals.`,
  ]);
  const sections = random.sample(SECTIONS, random.int(1, 4)).map((section) => section(input));
  return [intro, ...sections].join('\n\n');
}
