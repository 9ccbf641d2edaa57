import type { DomainEvent } from '../../services/events/index.ts';
import { EE, History, LT, LV, category, competitionDetails, competitionId, venue } from './eventBuilders.ts';

// The competition calendar of the HTTP tests, projected at NOW (today = 2025-06-14, UTC).
export const NOW = new Date('2025-06-14T10:00:00Z');

export const ids = {
  riga: competitionId(1),
  tallinn: competitionId(2),
  vilnius: competitionId(3),
  jurmala: competitionId(4),
  draft: competitionId(5),
  unpublished: competitionId(6),
  /** Five competitions with equal start date and equal name, created out of id order. */
  ties: [competitionId(10), competitionId(11), competitionId(12), competitionId(13), competitionId(14)],
};

export const riga = new History(ids.riga)
  .at(
    '2025-03-01T10:00:00Z',
    'competition.drafted',
    competitionDetails(1, {
      slug: 'riga-open-2025',
      name: 'Riga Open 2025',
      shortName: 'Riga Open',
      descriptionFormatted: 'Two days of **Latin** and *Standard* in the Arena Riga.',
      type: { code: 'international_open', label: 'International Open' },
      organizer: { name: 'DSC Aurora', shortName: 'Aurora', country: 'Latvia', countryCode: 'LV', website: 'https://aurora.example.lv' },
      dates: { start: '2025-06-14', end: '2025-06-15' },
      location: {
        ...venue(LV, 'Rīga', 'Arena Riga'),
        formattedAddress: 'Skanstes iela 21, Rīga',
        placeId: 'place-1',
        venueAddress: 'Skanstes iela 21',
      },
      registration: { status: 'open', opensAt: '2025-04-01', deadline: '2025-06-20', maxEntries: 400, externalUrl: null },
      banner: {
        horizontal: { '640': 'https://cdn.example/riga-640.webp', '1280': 'https://cdn.example/riga-1280.webp' },
        vertical: { default: 'https://cdn.example/riga-v.jpg' },
      },
      media: { entryForm: 'https://cdn.example/riga-entry.pdf' },
    }),
  )
  .at('2025-03-01T10:01:00Z', 'competition.category_added', {
    category: category(1, { name: 'Youth Latin', style: 'latin', level: 6, ageGroup: 'Youth', dances: ['S', 'ChCh', 'R', 'P', 'J'] }),
  })
  .at('2025-03-01T10:02:00Z', 'competition.category_added', {
    category: category(2, { name: 'Adult Standard', style: 'standard', level: null, participantDivision: 'Open' }),
  })
  .at('2025-03-01T10:03:00Z', 'competition.category_added', {
    category: category(3, { name: 'Solo Show Kids', entryType: 'solo', style: 'none', level: 2 }),
  })
  .at('2025-03-02T08:00:00Z', 'competition.published', {})
  .at('2025-04-02T10:00:00Z', 'competition.entry_submitted', { entryId: competitionId(901), categoryIds: [category(1).id, category(2).id] })
  .at('2025-04-03T10:00:00Z', 'competition.entry_submitted', { entryId: competitionId(902), categoryIds: [category(1).id] });

export const tallinn = new History(ids.tallinn)
  .at(
    '2025-05-01T10:00:00Z',
    'competition.drafted',
    competitionDetails(2, {
      slug: 'tallinn-cup',
      name: 'Tallinn Cup',
      dates: { start: '2025-07-01', end: '2025-07-01' },
      location: venue(EE, 'Tallinn'),
      registration: {
        status: 'open',
        opensAt: '2025-06-20',
        deadline: null,
        maxEntries: null,
        externalUrl: 'https://entries.example.ee/tallinn',
      },
    }),
  )
  .at('2025-06-01T10:00:00Z', 'competition.published', {});

export const vilnius = new History(ids.vilnius)
  .at(
    '2024-08-01T10:00:00Z',
    'competition.drafted',
    competitionDetails(3, {
      slug: 'vilnius-autumn-2024',
      name: 'Vilnius Autumn 2024',
      dates: { start: '2024-10-10', end: '2024-10-11' },
      location: venue(LT, 'Vilnius'),
      registration: { status: 'closed', opensAt: null, deadline: null, maxEntries: null, externalUrl: null },
    }),
  )
  .at('2024-08-02T10:00:00Z', 'competition.published', {})
  .at('2024-10-12T10:00:00Z', 'competition.completed', {});

export const jurmala = new History(ids.jurmala)
  .at(
    '2025-04-01T10:00:00Z',
    'competition.drafted',
    competitionDetails(4, {
      slug: 'jurmala-summer',
      name: 'Jūrmala Summer (Latin+) Cup',
      dates: { start: '2025-06-10', end: '2025-06-14' },
      location: venue(LV, 'Jūrmala'),
      registration: { status: 'open', opensAt: null, deadline: '2025-06-13', maxEntries: null, externalUrl: null },
    }),
  )
  .at('2025-04-02T10:00:00Z', 'competition.published', {});

const draft = new History(ids.draft).at(
  '2025-05-01T10:00:00Z',
  'competition.drafted',
  competitionDetails(5, {
    slug: 'secret-draft',
    name: 'Secret Draft Riga',
    dates: { start: '2025-06-14', end: '2025-06-14' },
    location: venue(LV, 'Rīga'),
    type: { code: 'secret', label: 'Secret' },
  }),
);

const unpublished = new History(ids.unpublished)
  .at(
    '2025-05-01T10:00:00Z',
    'competition.drafted',
    competitionDetails(6, {
      slug: 'withdrawn-gala',
      name: 'Withdrawn Riga Gala',
      location: venue(EE, 'Tartu'),
      type: { code: 'gala', label: 'Gala' },
    }),
  )
  .at('2025-05-02T10:00:00Z', 'competition.published', {})
  .at('2025-05-03T10:00:00Z', 'competition.unpublished', {});

const creationOrder = [14, 12, 10, 13, 11];
const ties = creationOrder.map((n, i) =>
  new History(competitionId(n))
    .at(`2025-05-1${i}T10:00:00Z`, 'competition.drafted', competitionDetails(n, { slug: `autumn-tie-${n}`, name: 'Autumn Tie' }))
    .at(`2025-05-1${i}T11:00:00Z`, 'competition.published', {}),
);

export const calendarEvents: DomainEvent[] = [riga, tallinn, vilnius, jurmala, draft, unpublished, ...ties].flatMap((h) => h.events);

/** Visible competitions in the default order (start date, then id). */
export const defaultOrder = [ids.vilnius, ids.jurmala, ids.riga, ids.tallinn, ...ids.ties];
