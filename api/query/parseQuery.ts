import { ENDPOINTS } from '../../schemas/api/endpoints.ts';
import type { EndpointName } from '../../schemas/api/endpoints.ts';
import type { QueryByEndpoint } from '../../schemas/api/queryByEndpoint.ts';
import { prepareQueryValues } from './prepareQueryValues.ts';
import { queryValidator } from './queryValidators.ts';
import { explainParameterErrors } from './explainParameterErrors.ts';
import { crossFieldProblems } from './crossFieldProblems.ts';
import { parameterLabel } from './parameterLabel.ts';

export type ParseQueryResult<E extends EndpointName> =
  { readonly ok: true; readonly query: QueryByEndpoint[E] } | { readonly ok: false; readonly details: string[] };

/**
 * Parses and validates the raw query string (with or without the leading `?`) of one
 * endpoint. On failure `details` holds one `<parameter>: <explanation>` per offending
 * parameter, all of them, in the order the parameters first appear in the query string.
 */
export function parseQuery<E extends EndpointName>(endpoint: E, rawQuery: string): ParseQueryResult<E> {
  const definition = ENDPOINTS[endpoint];
  const { names, values, problems } = prepareQueryValues(definition, rawQuery);

  const validate = queryValidator(endpoint);
  if (!validate(values)) {
    for (const [name, explanation] of explainParameterErrors(validate.errors ?? [])) {
      if (!problems.has(name)) problems.set(name, explanation);
    }
  }
  for (const [name, explanation] of crossFieldProblems(values)) {
    if (!problems.has(name)) problems.set(name, explanation);
  }

  if (problems.size === 0) return { ok: true, query: values as QueryByEndpoint[E] };
  const details: string[] = [];
  for (const name of names) {
    const explanation = problems.get(name);
    if (explanation !== undefined) details.push(`${parameterLabel(name)}: ${explanation}`);
  }
  return { ok: false, details };
}
