import { readFileSync } from 'node:fs';

/** Samples a process's resident memory (Linux /proc) until stopped; keeps the peak and the series. */
export function sampleRss(pid: number, everyMs = 250): { peakMb(): number; series(): number[]; stop(): void } {
  const series: number[] = [];
  const read = (): void => {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) series.push(Number(match[1]) / 1024);
    } catch {
      // The process has ended; the series keeps what was seen.
    }
  };
  read();
  const timer = setInterval(read, everyMs);
  return { peakMb: () => Math.max(0, ...series), series: () => [...series], stop: () => clearInterval(timer) };
}
