import { fork } from 'node:child_process';
import { setPriority } from 'node:os';
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

interface WorkerReply {
  latencies: number[];
  statuses: Record<string, number>;
  errors: number;
  seconds: number;
}

export function loadTest(opts: {
  port: number;
  paths: string[];
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /**
   * Run the generator as a child process at this nice level (19: lowest priority) instead of a
   * thread of this process: on one machine the load's client would otherwise compete with the
   * server for the CPU, which an attacker on another machine does not.
   */
  niceness?: number;
}): Promise<LoadResult> {
  const { niceness, ...workerData } = opts;
  return new Promise<WorkerReply>((resolve, reject) => {
    if (niceness === undefined) {
      const w = new Worker(worker, { workerData });
      w.once('error', reject);
      w.once('message', (m: WorkerReply) => {
        resolve(m);
        void w.terminate();
      });
      return;
    }
    const child = fork(worker, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    if (child.pid !== undefined) setPriority(child.pid, niceness);
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`load generator exited with ${code}`)));
    child.once('message', (m) => resolve(m as WorkerReply));
    child.send(workerData);
  }).then((m) => {
    const sorted = m.latencies.sort((a, b) => a - b);
    const round = (v: number) => Math.round(v * 10) / 10;
    return {
      requests: sorted.length,
      reqPerSec: Math.round(sorted.length / m.seconds),
      p50Ms: round(percentile(sorted, 50)),
      p99Ms: round(percentile(sorted, 99)),
      maxMs: round(sorted.at(-1) ?? Number.NaN),
      statuses: m.statuses,
      errors: m.errors,
    };
  });
}
