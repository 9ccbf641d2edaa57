// Rules that involve a parameter's meaning rather than its form, checked after the schema.

export function crossFieldProblems(values: Record<string, unknown>): Map<string, string> {
  const problems = new Map<string, string>();
  const { dateFrom, dateTo, updatedSince } = values;
  if (typeof dateFrom === 'string' && typeof dateTo === 'string' && dateTo < dateFrom) {
    problems.set('dateTo', `must not be before dateFrom (got ${dateTo} < ${dateFrom})`);
  }
  // RFC 3339 allows a leap second (`23:59:60`) that Date cannot represent.
  if (typeof updatedSince === 'string' && Number.isNaN(Date.parse(updatedSince))) {
    problems.set('updatedSince', 'must be a date-time that exists');
  }
  return problems;
}
