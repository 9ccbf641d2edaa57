import { describe, expect, it } from 'vitest';
import { commandInvocation, readableLogLine } from './commandOutput.ts';

describe('readableLogLine', () => {
  it('turns a JSON log line into a sentence with its level and error, leaving the other fields out', () => {
    const line = JSON.stringify({
      level: 40,
      time: '2026-11-28T08:00:00.000Z',
      service: 'rebuild',
      msg: 'the events topic may delete events',
    });
    expect(readableLogLine('rebuild', line)).toBe('rebuild: warning: the events topic may delete events');
    const failed = JSON.stringify({
      level: 50,
      msg: 'could not record the rebuild progress',
      err: { type: 'MongoError', message: 'not primary', stack: '…' },
    });
    expect(readableLogLine('rebuild', failed)).toBe('rebuild: error: could not record the rebuild progress: not primary');
    expect(readableLogLine('status', 'not json\n')).toBe('status: not json');
    // Two dead letters of one replay are told apart by where they were and why.
    const invalid = JSON.stringify({
      level: 40,
      partition: 2,
      offset: '1004',
      reason: 'eventId: must be a uuid\nmore',
      msg: 'dead-lettered an invalid message',
    });
    expect(readableLogLine('rebuild', invalid)).toBe(
      'rebuild: warning: dead-lettered an invalid message at 2:1004: eventId: must be a uuid',
    );
  });
});

describe('commandInvocation', () => {
  it('names the npm script from a checkout and the built script in the image', () => {
    const checkout = commandInvocation('dead-letters', '/work/main/projector/deadLetters.ts');
    expect([checkout.run, checkout.withArgs('republish --all')]).toEqual([
      'npm run dead-letters',
      'npm run dead-letters -- republish --all',
    ]);
    const image = commandInvocation('dead-letters', '/app/dist/projector/deadLetters.js');
    expect([image.run, image.withArgs('republish --all')]).toEqual([
      'node dist/projector/deadLetters.js',
      'node dist/projector/deadLetters.js republish --all',
    ]);
  });
});
