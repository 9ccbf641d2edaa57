interface RangeSchema {
  minimum?: number;
  maximum?: number;
}

/** `must be an integer from 1 to 100`, `must be an integer of at least 1`, … */
export function describeRange(schema: RangeSchema): string {
  const { minimum, maximum } = schema;
  if (minimum !== undefined && maximum !== undefined) return `must be an integer from ${minimum} to ${maximum}`;
  if (minimum === 0) return 'must be a non-negative integer';
  if (minimum !== undefined) return `must be an integer of at least ${minimum}`;
  if (maximum !== undefined) return `must be an integer of at most ${maximum}`;
  return 'must be an integer';
}
