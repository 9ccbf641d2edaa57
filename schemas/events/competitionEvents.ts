import { Type } from '@sinclair/typebox';
import { Uuid } from './primitives.ts';
import { CategoryDetails, Closed, CompetitionDetails, NoData, Subset } from './shared.ts';

// An entry always names at least one category (so startsCount >= entriesCount holds), and a
// category named twice would be counted twice.
const CategoryIds = () => Type.Array(Uuid(), { minItems: 1, uniqueItems: true });

/** `data` of every event of the competition aggregate (aggregateId = competition id). */
export const competitionEventData = {
  'competition.drafted': CompetitionDetails,
  'competition.published': NoData(),
  'competition.details_changed': Subset(CompetitionDetails),
  'competition.completed': NoData(),
  'competition.unpublished': NoData(),
  'competition.deleted': NoData(),
  'competition.category_added': Closed({ category: CategoryDetails }),
  'competition.category_changed': Closed({ categoryId: Uuid(), changes: Subset(CategoryDetails) }),
  'competition.category_removed': Closed({ categoryId: Uuid() }),
  'competition.entry_submitted': Closed({ entryId: Uuid(), categoryIds: CategoryIds() }),
  'competition.entry_changed': Closed({ entryId: Uuid(), categoryIds: CategoryIds() }),
  'competition.entry_withdrawn': Closed({ entryId: Uuid() }),
};
