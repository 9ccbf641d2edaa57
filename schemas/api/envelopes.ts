import { Type } from '@sinclair/typebox';
import type { Static, TSchema } from '@sinclair/typebox';
import { NullableString } from './primitives.ts';
import { Category } from './category.ts';
import { Competition } from './competition.ts';
import { Coach, Dancer, Judge } from './registryPeople.ts';
import { ClubDetail, ClubListItem } from './club.ts';

export const PageMeta = Type.Object(
  {
    page: Type.Integer({ minimum: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: 100 }),
    total: Type.Integer({ minimum: 0 }),
    totalPages: Type.Integer({ minimum: 0 }),
    hasNextPage: Type.Boolean(),
    hasPreviousPage: Type.Boolean({ description: 'Always present.' }),
  },
  { title: 'PageMeta' },
);

export const PageLinks = Type.Object(
  {
    self: Type.String(),
    next: NullableString({ description: 'The next page; null on the last page and past it.' }),
    previous: NullableString({
      description: 'The previous page (past the end: the last page that holds data, page 1 when nothing matches); null on page 1.',
    }),
  },
  {
    title: 'PageLinks',
    description:
      'Ready-made absolute URLs with the query in canonical form (parameters sorted, defaults written out); `self` is the page itself.',
  },
);

/** A paginated list: every listing carries ready-made page links, like the competition list. */
export function ListEnvelope<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), meta: PageMeta, links: PageLinks });
}

export function SingleEnvelope<T extends TSchema>(item: T) {
  return Type.Object({ data: item });
}

export const CompetitionListEnvelope = Type.Object({ data: Type.Array(Competition), meta: PageMeta, links: PageLinks });
export const CompetitionEnvelope = SingleEnvelope(Competition);
export const CategoryListEnvelope = Type.Object({
  data: Type.Array(Category),
  meta: Type.Object({ total: Type.Integer({ minimum: 0 }) }),
});
export const DancerListEnvelope = ListEnvelope(Dancer);
export const CoachListEnvelope = ListEnvelope(Coach);
export const JudgeListEnvelope = ListEnvelope(Judge);
export const ClubListEnvelope = ListEnvelope(ClubListItem);
export const ClubEnvelope = SingleEnvelope(ClubDetail);

export type PageMeta = Static<typeof PageMeta>;
export type PageLinks = Static<typeof PageLinks>;
export type CompetitionListEnvelope = Static<typeof CompetitionListEnvelope>;
export type CategoryListEnvelope = Static<typeof CategoryListEnvelope>;
