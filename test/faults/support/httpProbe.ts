export interface Probe {
  status: number;
  headers: Headers;
  body: string;
  ms: number;
}

/** One GET with its own time limit; a connection error or the time limit counts as status 0. */
export async function probe(url: string, timeoutMs = 15_000): Promise<Probe> {
  const began = performance.now();
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    const body = await res.text();
    return { status: res.status, headers: res.headers, body, ms: performance.now() - began };
  } catch (error) {
    return { status: 0, headers: new Headers(), body: String(error), ms: performance.now() - began };
  }
}

/** Milliseconds from now until `url` answers `status` (polled every 100 ms), or throws after the limit. */
export async function msUntilStatus(url: string, status: number, limitMs = 180_000): Promise<number> {
  const began = performance.now();
  for (;;) {
    const got = await probe(url, 5000);
    if (got.status === status) return Math.round(performance.now() - began);
    if (performance.now() - began > limitMs)
      throw new Error(`${url} did not answer ${status} within ${limitMs} ms (last ${got.status}: ${got.body})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
