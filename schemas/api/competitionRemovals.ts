import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { DateTimeString, StringEnum, UuidString } from './primitives.ts';
import { DateTimeParameter, limit, page } from './queryParameters.ts';
import { PageLinks, PageMeta } from './envelopes.ts';
import type { WithDefaults } from './withDefaults.ts';

export const REMOVAL_REASONS = ['unpublished', 'deleted'] as const;

/** Query parameters of `GET /competitions/removals`. */
export const CompetitionRemovalsQuery = Type.Object(
  {
    updatedSince: DateTimeParameter(
      'Only competitions that left public view at or after this instant: pass the same instant as to `/competitions?updatedSince=`. Without it, every competition that was public and is not any more. Responses with it are never cached: `Cache-Control: no-store`, `X-Cache: BYPASS`.',
    ),
    page,
    limit,
  },
  { additionalProperties: false },
);

export type CompetitionRemovalsQuery = WithDefaults<Static<typeof CompetitionRemovalsQuery>, 'page' | 'limit'>;

export const CompetitionRemoval = Type.Object(
  {
    id: UuidString(),
    slug: Type.String({ description: 'The slug it had while public (frozen at publication).' }),
    removedAt: DateTimeString({ description: 'When it left public view: the instant of the unpublication or deletion (UTC).' }),
    reason: StringEnum(REMOVAL_REASONS, {
      description:
        '`unpublished`: back to draft, may be published again (it then reappears in `/competitions?updatedSince=` and leaves this list); `deleted`: gone for good. A competition unpublished and deleted later stays `unpublished` at the instant it left view.',
    }),
  },
  { title: 'CompetitionRemoval' },
);

export const CompetitionRemovalListEnvelope = Type.Object({ data: Type.Array(CompetitionRemoval), meta: PageMeta, links: PageLinks });

export type CompetitionRemoval = Static<typeof CompetitionRemoval>;
export type CompetitionRemovalListEnvelope = Static<typeof CompetitionRemovalListEnvelope>;
