// Signature checks on a second thread. rippled checks the signatures of incoming transactions on its
// job-queue threads ahead of applying them under the ledger lock; here the server's event loop
// decodes a batch, hands its checks to one worker thread in a single message, and applies the
// batch before it meanwhile. The worker only runs OpenSSL's verify on what crypto-verify.ts
// accepted (key, digest, signature form); every rule stays there, and whatever the worker could
// not decide is checked on the calling thread.
//
// Two earlier attempts used libuv's pool (one job and one callback per signature: 15–35 µs of
// event-loop work each) and a worker per-transaction; one message per batch each way costs a few
// µs per signature (docs/xrpl-standalone-performance.md).
import { Worker } from 'node:worker_threads';
import type { KeyObject } from 'node:crypto';
import type { NativeCheck } from './crypto-verify';

/** One signature to check: the signed message and what crypto-verify.ts made of the key and signature. */
export interface SignatureJob {
  readonly message: Buffer;
  readonly check: NativeCheck;
}

/** Worker verdicts: 1 valid, 0 invalid, 2 OpenSSL could not decide (the caller checks it itself). */
export const VALID = 1;
export const INVALID = 0;
const MAX_KEYS = 100_000;
const MAX_FAILURES = 3;

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { verify } = require('node:crypto');
const keys = new Map();
parentPort.on('message', (m) => {
  if (m.reset) keys.clear();
  for (let i = 0; i < m.newKeys.length; i += 2) keys.set(m.newKeys[i], m.newKeys[i + 1]);
  const n = m.keyIds.length;
  const out = new Uint8Array(n);
  const data = m.data;
  for (let i = 0, at = 0; i < n; i += 1) {
    const msg = data.subarray(at, at + m.msgLengths[i]);
    at += m.msgLengths[i];
    const sig = data.subarray(at, at + m.sigLengths[i]);
    at += m.sigLengths[i];
    try {
      out[i] = verify(m.sha512[i] ? 'sha512' : null, msg, keys.get(m.keyIds[i]), sig) ? 1 : 0;
    } catch {
      out[i] = 2;
    }
  }
  parentPort.postMessage({ seq: m.seq, out }, [out.buffer]);
});
`;

/**
 * The process's signature thread, started on first use and shared by every ledger in the process
 * (it holds no ledger state). `unref`'d: it never keeps a process alive.
 */
class SignatureThread {
  private worker: Worker | undefined;
  /** Workers that failed; after MAX_FAILURES every check stays on the calling thread. */
  private failures = 0;
  private seq = 0;
  private readonly pending = new Map<number, (verdicts: Uint8Array | undefined) => void>();
  /** Key numbers the worker has been sent (a key object is sent once, then named by its number). */
  private readonly sent = new Set<number>();

  /** False once workers have failed MAX_FAILURES times: callers check on their own thread from then on. */
  get available(): boolean {
    return this.failures < MAX_FAILURES;
  }

  /** Ends the worker as a crash would (tests): what it was checking is checked by the callers. */
  async terminateForTest(): Promise<void> {
    await this.worker?.terminate();
  }

  /**
   * Checks every job on the worker; `done` gets one verdict per job (VALID, INVALID or 2), or
   * `undefined` if the worker failed — never synchronously.
   */
  check(jobs: readonly SignatureJob[], done: (verdicts: Uint8Array | undefined) => void): void {
    const worker = this.start();
    const n = jobs.length;
    const keyIds = new Uint32Array(n);
    const msgLengths = new Uint32Array(n);
    const sigLengths = new Uint32Array(n);
    const sha512 = new Uint8Array(n);
    const newKeys: Array<number | KeyObject> = [];
    // Bounded like crypto-verify's own cache: past it, the worker starts over with this batch's keys.
    const reset = this.sent.size > MAX_KEYS;
    if (reset) this.sent.clear();
    let size = 0;
    for (let i = 0; i < n; i += 1) {
      const { message, check } = jobs[i] as SignatureJob;
      size += message.length + check.signature.length;
      keyIds[i] = check.key.id;
      msgLengths[i] = message.length;
      sigLengths[i] = check.signature.length;
      sha512[i] = check.digest === 'sha512' ? 1 : 0;
      if (!this.sent.has(check.key.id)) {
        this.sent.add(check.key.id);
        newKeys.push(check.key.id, check.key.key);
      }
    }
    const data = new Uint8Array(size);
    for (let i = 0, at = 0; i < n; i += 1) {
      const { message, check } = jobs[i] as SignatureJob;
      data.set(message, at);
      at += message.length;
      data.set(check.signature, at);
      at += check.signature.length;
    }
    const seq = ++this.seq;
    this.pending.set(seq, done);
    if (this.pending.size === 1) worker.ref();
    worker.postMessage({ seq, reset, newKeys, keyIds, msgLengths, sigLengths, sha512, data }, [
      keyIds.buffer,
      msgLengths.buffer,
      sigLengths.buffer,
      sha512.buffer,
      data.buffer,
    ]);
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    worker.on('message', (m: { seq: number; out: Uint8Array }) => {
      const done = this.pending.get(m.seq);
      this.pending.delete(m.seq);
      if (this.pending.size === 0) worker.unref();
      done?.(m.out);
    });
    const fail = () => {
      if (this.worker !== worker) return; // its 'error' and then its 'exit'
      this.failures += 1;
      this.worker = undefined;
      this.sent.clear();
      const waiting = [...this.pending.values()];
      this.pending.clear();
      for (const done of waiting) done(undefined);
    };
    worker.once('error', fail);
    worker.once('exit', fail);
    this.worker = worker;
    return worker;
  }
}

export const signatureThread = new SignatureThread();
