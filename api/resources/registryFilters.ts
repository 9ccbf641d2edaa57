import type { Country } from '../../schemas/api/country.ts';
import { JUDGE_POSITIONS, MEMBERSHIP_STATUSES, REGISTRY_STATES, type JudgePosition } from '../../schemas/enumValues.ts';
import type { RegistryFilters } from '../../schemas/api/filterBodies.ts';
import type { NoQuery } from '../../schemas/api/noQuery.ts';
import type { FacetCounts } from '../facetCounts.ts';
import { compareDisplayNames } from './compareDisplayNames.ts';
import type { ResourceRequest } from './resourceRequest.ts';

type Entity = 'dancers' | 'coaches' | 'judges' | 'clubs';

/** The numbers a facet counted (dance classes, judge categories), ascending. */
const numbersOf = (facets: FacetCounts, facet: 'class' | 'category'): number[] =>
  facets
    .of<number>(facet)
    .rows()
    .map(({ key }) => key)
    .sort((a, b) => a - b);

/**
 * `GET /registry/filters`: countries with counts per entity (in compareDisplayNames order, then
 * id), classes, categories, positions, enums. Every count is of the listed records only (the
 * registry: the archive and the internal buffer are never counted), as facetCounts gives them.
 */
export async function registryFilters(req: ResourceRequest<NoQuery>): Promise<RegistryFilters> {
  const { view } = req;
  const [dancers, coaches, judges, clubs] = await Promise.all([
    view.facetCounts('dancers'),
    view.facetCounts('coaches'),
    view.facetCounts('judges'),
    view.facetCounts('clubs'),
  ]);
  const countries = new Map<number, Country & { counts: Record<Entity, number> }>();
  const add = (entity: Entity, facets: FacetCounts): void => {
    for (const { key: country, count } of facets.of<Country>('country').byId()) {
      const entry = countries.get(country.id) ?? { ...country, counts: { dancers: 0, coaches: 0, judges: 0, clubs: 0 } };
      entry.counts[entity] += count;
      countries.set(country.id, entry);
    }
  };
  add('dancers', dancers);
  add('coaches', coaches);
  add('judges', judges);
  add('clubs', clubs);
  const positions = new Set(
    judges
      .of<JudgePosition>('position')
      .rows()
      .map(({ key }) => key),
  );
  return {
    data: {
      countsScope: 'registryState=REGISTRY',
      countries: [...countries.values()]
        .map(({ id, name, code, counts }) => ({ id, name, code, counts }))
        .sort((a, b) => compareDisplayNames(a.name, b.name) || a.id - b.id),
      danceClasses: numbersOf(dancers, 'class'),
      judgeCategories: numbersOf(judges, 'category'),
      judgePositions: JUDGE_POSITIONS.filter((p) => positions.has(p)),
      statuses: [...MEMBERSHIP_STATUSES],
      registryStates: [...REGISTRY_STATES],
    },
  };
}
