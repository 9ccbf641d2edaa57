/**
 * What doubling an input costs: the best time of `rounds` runs on size `n` against the best on
 * `2n`, run in turns so that a load on the (shared) machine weighs on both. Tried up to `tries`
 * times until one ratio is within `bound`: a garbage collection or another process landing in
 * one timing can double it once, while a cost that grows faster than the input (4x for a
 * quadratic one) shows on every try. Returns every ratio measured, the best last.
 */
export async function doublingRatios(
  run: (size: number) => unknown,
  n: number,
  opts: { bound: number; rounds?: number; tries?: number },
): Promise<{ best: number; ratios: number[]; ms: [number, number] }> {
  const rounds = opts.rounds ?? 3;
  const tries = opts.tries ?? 3;
  const ratios: number[] = [];
  let ms: [number, number] = [Infinity, Infinity];
  for (let attempt = 0; attempt < tries && !ratios.some((r) => r <= opts.bound); attempt++) {
    const best: [number, number] = [Infinity, Infinity];
    for (let round = 0; round < rounds; round++) {
      for (const [i, size] of [n, 2 * n].entries()) {
        const began = performance.now();
        await run(size);
        best[i] = Math.min(best[i]!, performance.now() - began);
      }
    }
    ratios.push(best[1] / best[0]);
    if (best[1] / best[0] <= Math.min(...ratios)) ms = best;
  }
  return { best: Math.min(...ratios), ratios, ms };
}
