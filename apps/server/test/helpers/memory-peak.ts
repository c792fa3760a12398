import type { PGlite } from '@electric-sql/pglite';
import type { Database } from '../../src/db/client';
import type { LedgerHeap } from '../../src/ledger/embedded-ledger';

// Issue 40's RSS row ("the server's RSS stays ≤ 1 GB") with what makes it up, so a reader sees where
// the memory went at the peak and not just how much: the main thread's V8 heap, the memory held
// outside it (Buffers, ArrayBuffers — PGlite's in-memory files among them), PGlite's WebAssembly
// memory (it grows and never shrinks), and the ledger thread's own V8 heap (a second isolate, not in
// process.memoryUsage()'s heap figures). RSS is sampled every 100 ms; the probes that are not free
// (the ledger thread answers over a message; the in-memory files are walked) once a second.

const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round(bytes / MB);

/** One sample, in MB. */
export interface MemorySample {
  rssMb: number;
  /** The main thread's V8 heap in use: live objects and garbage not yet collected. */
  heapUsedMb: number;
  heapTotalMb: number;
  /** Memory of JavaScript objects kept outside the V8 heap; includes `arrayBuffersMb`. */
  externalMb: number;
  arrayBuffersMb: number;
  /** PGlite's WebAssembly memory (postgres's own: shared_buffers, work_mem, caches). */
  pgliteWasmMb?: number;
  /** PGlite's in-memory file system (its data directory and WAL: ArrayBuffers, in `arrayBuffersMb`). */
  pgliteFilesMb?: number;
  /** Of which its WAL (`pg_wal`). */
  pgliteWalMb?: number;
  /** The ledger thread's V8 heap in use (its own isolate), when it runs in a worker thread. */
  ledgerHeapUsedMb?: number;
  ledgerHeapTotalMb?: number;
}

export interface MemoryPeak {
  /** The sample with the highest RSS (the slow probes as last read before it). */
  atPeak: MemorySample;
  /** Each figure's own highest value over the run (not necessarily at the same moment). */
  max: MemorySample;
}

interface EmscriptenNode {
  contents?: Record<string, EmscriptenNode> | Uint8Array | null;
  mode: number;
  mount?: { type?: unknown };
}

/** Bytes of PGlite's in-memory (MEMFS) files, and of those under a `pg_wal` directory. */
function pgliteFiles(pg: PGlite): { files: number; wal: number } | undefined {
  const fs = (
    pg.Module as unknown as { FS?: { lookupPath(p: string): { node: EmscriptenNode }; MEMFS?: unknown } }
  ).FS;
  if (!fs) return undefined;
  const out = { files: 0, wal: 0 };
  const isDir = (mode: number) => (mode & 0o170000) === 0o040000;
  const walk = (node: EmscriptenNode, inWal: boolean) => {
    const c = node.contents;
    if (isDir(node.mode)) {
      // A directory of MEMFS keeps its entries in `contents`; a mounted host directory (NODEFS, the
      // deployed server's data directory) has none: its files are on disk, not in this process.
      if (c && !(c instanceof Uint8Array))
        for (const [name, child] of Object.entries(c)) walk(child, inWal || name === 'pg_wal');
      return;
    }
    if (c instanceof Uint8Array) {
      out.files += c.byteLength; // its capacity: MEMFS grows a file ahead of its size
      if (inWal) out.wal += c.byteLength;
    }
  };
  walk(fs.lookupPath('/').node, false);
  return out;
}

/**
 * Samples this process's memory until `stop()`. `database`: on PGlite, its WebAssembly memory and
 * in-memory files are probed; `ledgerHeap`: the ledger thread's heap (`TestApp.ledgerHeap`).
 */
export function memoryPeak(opts: { database?: Database; ledgerHeap?: () => Promise<LedgerHeap> } = {}): {
  stop(): Promise<MemoryPeak>;
} {
  const pg =
    opts.database?.driver === 'pglite'
      ? ((opts.database.db as { $client?: PGlite }).$client ?? undefined)
      : undefined;
  let slow: Partial<MemorySample> = {};
  let atPeak: MemorySample | undefined;
  const max: MemorySample = { rssMb: 0, heapUsedMb: 0, heapTotalMb: 0, externalMb: 0, arrayBuffersMb: 0 };
  const keepMax = (s: Partial<MemorySample>) => {
    for (const [k, v] of Object.entries(s) as Array<[keyof MemorySample, number | undefined]>)
      if (v !== undefined) max[k] = Math.max(max[k] ?? 0, v);
  };
  const sample = () => {
    const m = process.memoryUsage();
    const s: MemorySample = {
      rssMb: mb(m.rss),
      heapUsedMb: mb(m.heapUsed),
      heapTotalMb: mb(m.heapTotal),
      externalMb: mb(m.external),
      arrayBuffersMb: mb(m.arrayBuffers),
      ...slow,
    };
    keepMax(s);
    if (!atPeak || s.rssMb > atPeak.rssMb) atPeak = s;
  };
  let probing = false;
  const probe = async () => {
    if (probing) return;
    probing = true;
    try {
      const next: Partial<MemorySample> = {};
      if (pg && !pg.closed) {
        next.pgliteWasmMb = mb(pg.Module.HEAPU8.byteLength);
        const files = pgliteFiles(pg);
        if (files) {
          next.pgliteFilesMb = mb(files.files);
          next.pgliteWalMb = mb(files.wal);
        }
      }
      // The thread's figures are left out once it has ended (a bench closing the app).
      const h = await opts.ledgerHeap?.().catch(() => undefined);
      if (h) {
        next.ledgerHeapUsedMb = mb(h.usedBytes);
        next.ledgerHeapTotalMb = mb(h.totalBytes);
      }
      slow = next;
      keepMax(next);
    } finally {
      probing = false;
    }
  };
  void probe();
  sample();
  const fast = setInterval(sample, 100);
  const slowTimer = setInterval(() => void probe(), 1000);
  return {
    stop: async () => {
      clearInterval(fast);
      clearInterval(slowTimer);
      await probe();
      sample();
      return { atPeak: atPeak!, max };
    },
  };
}

/** One line for a bench's note: the peak's RSS and what made it up. */
export function describeMemoryPeak({ atPeak: p }: MemoryPeak): string {
  const parts = [
    `V8 heap ${p.heapUsedMb} MB used of ${p.heapTotalMb}`,
    `external ${p.externalMb} MB (ArrayBuffers ${p.arrayBuffersMb})`,
  ];
  if (p.pgliteWasmMb !== undefined) parts.push(`PGlite's WebAssembly memory ${p.pgliteWasmMb} MB`);
  if (p.pgliteFilesMb) parts.push(`PGlite's in-memory files ${p.pgliteFilesMb} MB (WAL ${p.pgliteWalMb})`);
  if (p.ledgerHeapUsedMb !== undefined)
    parts.push(`the ledger thread's heap ${p.ledgerHeapUsedMb} MB used of ${p.ledgerHeapTotalMb}`);
  return `${p.rssMb} MB at the peak: ${parts.join(', ')}`;
}
