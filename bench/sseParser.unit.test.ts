import { describe, expect, it } from 'vitest';
import { SseParser } from './sseParser.ts';

describe('SseParser', () => {
  it('dispatches events with their id, name and joined data, across chunk boundaries and line endings', () => {
    const parser = new SseParser();
    const chunks = [
      ': heartbeat\n\nid: c1\nevent: change\nda',
      'ta: {"id":"a"}\r\n\r',
      '\nid: c2\ndata: x\rdata: y\r\r',
      'data: no id\n\n',
    ];
    const events = chunks.flatMap((chunk) => parser.push(chunk));
    expect(events).toEqual([
      { id: 'c1', event: 'change', data: '{"id":"a"}' },
      { id: 'c2', event: 'message', data: 'x\ny' },
      { id: 'c2', event: 'message', data: 'no id' },
    ]);
    expect(parser.lastEventId).toBe('c2');
  });

  it('reads a raw chunked HTTP response: its status, headers and chunk sizes are not fields', () => {
    const parser = new SseParser();
    const raw =
      'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n1c\r\nid: 7\ndata: {"id":"d1"}\n\n\r\n';
    expect(parser.push(raw)).toEqual([{ id: '7', event: 'message', data: '{"id":"d1"}' }]);
  });
});
