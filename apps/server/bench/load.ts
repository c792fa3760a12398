import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

// A closed-loop loopback load test from a worker thread (bench/load-worker.mjs): requests per
// second and latency percentiles of the answers.

export interface LoadResult {
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** HTTP status → count. */
  statuses: Record<string, number>;
  errors: number;
}

const worker = path.join(path.dirname(fileURLToPath(import.meta.url)), 'load-worker.mjs');

export const percentile = (sorted: number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : Number.NaN;

export function loadTest(opts: {
  port: number;
  paths: string[];
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
}): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const w = new Worker(worker, { workerData: opts });
    w.once('error', reject);
    w.once(
      'message',
      (m: { latencies: number[]; statuses: Record<string, number>; errors: number; seconds: number }) => {
        const sorted = m.latencies.sort((a, b) => a - b);
        const round = (v: number) => Math.round(v * 10) / 10;
        resolve({
          requests: sorted.length,
          reqPerSec: Math.round(sorted.length / m.seconds),
          p50Ms: round(percentile(sorted, 50)),
          p99Ms: round(percentile(sorted, 99)),
          maxMs: round(sorted.at(-1) ?? Number.NaN),
          statuses: m.statuses,
          errors: m.errors,
        });
        void w.terminate();
      },
    );
  });
}
