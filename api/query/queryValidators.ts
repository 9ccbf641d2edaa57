import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ENDPOINTS, ENDPOINT_NAMES } from '../../schemas/api/endpoints.ts';
import type { EndpointName } from '../../schemas/api/endpoints.ts';

// One ajv instance and one compiled validator per endpoint, built once at module load from
// the same TypeBox schemas that feed the OpenAPI document. `useDefaults` fills page, limit,
// sort, order and registryState; `verbose` gives the describer the offending schema.
const ajv = new Ajv({ allErrors: true, useDefaults: true, verbose: true, strict: true, coerceTypes: false });
addFormats.default(ajv, ['date', 'date-time', 'uuid']);

const validators = new Map<EndpointName, ValidateFunction>(ENDPOINT_NAMES.map((name) => [name, ajv.compile(ENDPOINTS[name].query)]));

export function queryValidator(endpoint: EndpointName): ValidateFunction {
  const validate = validators.get(endpoint);
  if (!validate) throw new TypeError(`No query validator for endpoint ${endpoint}`);
  return validate;
}
