/** `record[key]` only when `key` is the record's own (never `constructor`, `__proto__`, …). */
export function ownEntry<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
