import { describe, expect, it } from 'vitest';
import { StreamedBody, gatherBody, remainingBody } from './streamedBody.ts';

function counted(chunks: string[]): { body: StreamedBody; state: { read: number; closed: boolean } } {
  const state = { read: 0, closed: false };
  async function* source(): AsyncGenerator<string> {
    try {
      for (const chunk of chunks) {
        await Promise.resolve();
        state.read += 1;
        yield chunk;
      }
    } finally {
      state.closed = true;
    }
  }
  return { body: new StreamedBody('text/plain', source()), state };
}

describe('gatherBody', () => {
  it('gives a body within the budget whole', async () => {
    const { body } = counted(['ab', 'cd', 'e']);
    expect(await gatherBody(body, 5)).toEqual({ whole: Buffer.from('abcde') });
  });

  it('stops reading at the first chunk past the budget, and the rest follows in order', async () => {
    const { body, state } = counted(['ab', 'cd', 'ef', 'gh']);
    const gathered = await gatherBody(body, 3);
    if ('whole' in gathered) throw new Error('gathered whole');
    expect(Buffer.concat(gathered.head).toString()).toBe('abcd');
    expect(state.read).toBe(2);
    const rest: Buffer[] = [];
    for await (const chunk of remainingBody(gathered.head, gathered.rest)) rest.push(chunk);
    expect(Buffer.concat(rest).toString()).toBe('abcdefgh');
    expect(state.closed).toBe(true);
  });

  it('closes the body when it fails', async () => {
    let closed = false;
    async function* failing(): AsyncGenerator<string> {
      try {
        yield await Promise.resolve('a');
        throw new Error('cursor lost');
      } finally {
        closed = true;
      }
    }
    await expect(gatherBody(new StreamedBody('text/plain', failing()), 10)).rejects.toThrow('cursor lost');
    expect(closed).toBe(true);
  });
});
