/** One dispatched event of a `text/event-stream`. */
export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * The event-stream format's parsing (HTML's "Server-sent events", 9.2.6) as far as the bench needs
 * it: lines end in CRLF, LF or CR; `:` starts a comment; `data` lines join with LF; an empty line
 * dispatches an event that has data. Lines that are not fields (an HTTP chunk's size) are ignored
 * as the format says, which lets it read a raw socket's chunked body.
 */
export class SseParser {
  #buffer = '';
  #data: string[] = [];
  #event = '';
  #id: string | undefined;
  /** The last `id:` seen, kept across events as a browser's `lastEventId` is. */
  lastEventId: string | undefined;

  push(text: string): SseEvent[] {
    this.#buffer += text;
    const out: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const end = this.#buffer.slice(start).search(/\r\n|\r|\n/);
      if (end === -1) break;
      const line = this.#buffer.slice(start, start + end);
      const terminator = this.#buffer.startsWith('\r\n', start + end) ? 2 : 1;
      // A lone CR at the very end may be the first half of a CRLF still to come.
      if (terminator === 1 && this.#buffer[start + end] === '\r' && start + end + 1 === this.#buffer.length) break;
      start += end + terminator;
      const event = this.#line(line);
      if (event !== undefined) out.push(event);
    }
    this.#buffer = this.#buffer.slice(start);
    return out;
  }

  #line(line: string): SseEvent | undefined {
    if (line === '') {
      const event = this.#data.length > 0 ? { id: this.#id, event: this.#event || 'message', data: this.#data.join('\n') } : undefined;
      this.#data = [];
      this.#event = '';
      return event;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
    else if (field === 'id' && !value.includes('\0')) this.#id = this.lastEventId = value;
    return undefined;
  }
}
