import { report } from './bench-figures';

// What the machine under the bench is like, printed first and kept in the summary (no targets).
// The same code measured 131 PASS on one 2-core session machine and 115 on the next (issue 40,
// docs/benchmarks.md "Two machines, one code"), with the same ed25519 verifications per second
// (the cores' arithmetic) but a random load from a 512 MB working set four times as slow. A burst's
// work is a V8 heap of a few hundred MB that the server's objects and the garbage collector walk,
// so it runs at the memory's pace: a reader comparing two runs needs that pace beside them.

const SECTION = 'machine';

const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Nanoseconds per load along a single random cycle through `bytes` of memory (Sattolo's shuffle),
 * so every load depends on the last: the median of three walks of the same cycle.
 */
function chaseNs(bytes: number, loads: number): number {
  const n = bytes / 4;
  const next = new Uint32Array(n);
  for (let i = 0; i < n; i++) next[i] = i;
  let seed = 0x9e3779b9;
  for (let i = n - 1; i > 0; i--) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    const j = seed % i; // j < i: one cycle through every slot
    const t = next[i]!;
    next[i] = next[j]!;
    next[j] = t;
  }
  let p = 0;
  for (let k = 0; k < 100_000; k++) p = next[p]!; // warm the code, not the data
  const walks = [0, 1, 2].map(() => {
    const start = process.hrtime.bigint();
    for (let k = 0; k < loads; k++) p = next[p]!;
    return Number(process.hrtime.bigint() - start) / loads;
  });
  if (p === 0xffffffff) console.log(p); // keeps the walk's result alive
  return median(walks);
}

/** Microseconds per 4 KiB page the first time a fresh buffer's pages are written. */
function pageFaultUs(bytes: number): number {
  const start = process.hrtime.bigint();
  const page = new Uint8Array(new ArrayBuffer(bytes));
  for (let i = 0; i < bytes; i += 4096) page[i] = 1;
  return Number(process.hrtime.bigint() - start) / 1000 / (bytes / 4096);
}

export function measureMachine(): void {
  console.log('\n## the machine\n');
  report({
    section: SECTION,
    figure: 'memory latency, random loads within 8 MB',
    value: chaseNs(8 << 20, 2_000_000),
    unit: 'ns',
    note: 'median of 3 walks; a working set some server caches hold',
  });
  report({
    section: SECTION,
    figure: 'memory latency, random loads within 512 MB',
    value: chaseNs(512 << 20, 2_000_000),
    unit: 'ns',
    note: "median of 3 walks; a working set the size of a busy server's heap",
  });
  report({
    section: SECTION,
    figure: 'first write to a fresh page',
    value: median([0, 1, 2].map(() => pageFaultUs(256 << 20))),
    unit: 'µs',
    digits: 2,
    note: 'median of 3 × 256 MB',
  });
}
