/** A position in the feed of one generation: `<generation>.<seq>` (schemas/api/changes.ts CHANGE_CURSOR_PATTERN). */
export interface ChangePosition {
  generation: number;
  seq: number;
}

export function formatCursor(position: ChangePosition): string {
  return `${position.generation}.${position.seq}`;
}

/** The position a cursor names, or null for text that is not one (the query schema has checked the pattern). */
export function parseCursor(cursor: string): ChangePosition | null {
  const match = /^([1-9][0-9]{0,8})\.([0-9]{1,15})$/.exec(cursor);
  if (!match) return null;
  const generation = Number(match[1]);
  const seq = Number(match[2]);
  return Number.isSafeInteger(seq) ? { generation, seq } : null;
}
