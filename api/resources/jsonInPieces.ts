/** Items of an array joined into one piece until it holds about this many characters. */
const PIECE_CHARS = 16_384;

/**
 * The bytes `JSON.stringify(value)` gives, made piece by piece: the arrays of `value`'s own
 * object members (one level down, as `{"data": {"cities": [...]}}`) item by item, so a body with
 * a long list is never held as one string; everything else whole. For a body the pipeline sends
 * whole or streams by size (StreamedBody).
 */
export function* jsonInPieces(value: Readonly<Record<string, unknown>>): Generator<string> {
  let opening = '{';
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined) continue;
    yield `${opening}${JSON.stringify(key)}:`;
    opening = ',';
    if (typeof member !== 'object' || member === null || Array.isArray(member)) {
      yield JSON.stringify(member);
      continue;
    }
    yield* objectInPieces(member as Readonly<Record<string, unknown>>);
  }
  yield opening === '{' ? '{}' : '}';
}

function* objectInPieces(value: Readonly<Record<string, unknown>>): Generator<string> {
  let opening = '{';
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined || typeof member === 'function') continue;
    const head = `${opening}${JSON.stringify(key)}:`;
    opening = ',';
    if (!Array.isArray(member)) {
      yield head + JSON.stringify(member);
      continue;
    }
    let piece = `${head}[`;
    for (let i = 0; i < member.length; i += 1) {
      piece += (i === 0 ? '' : ',') + (JSON.stringify(member[i]) ?? 'null');
      if (piece.length >= PIECE_CHARS) {
        yield piece;
        piece = '';
      }
    }
    yield `${piece}]`;
  }
  yield opening === '{' ? '{}' : '}';
}
