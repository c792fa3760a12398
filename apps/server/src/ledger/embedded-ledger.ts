import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type {
  AdminCredentials,
  RefusedRequest,
  StandaloneLedger,
  StandaloneLedgerOptions,
} from 'xrpl-standalone';
import type { LocalLedgerRequest } from './local-ledger';

// The embedded stand-alone ledger (`npm start`, tests, benches) is a server of its own behind
// xrpl.js: the app reaches it only over its WebSocket. Run in this thread, its work (applying
// transactions, closing ledgers, hashing state) and the API's (routes, signing, the indexer) take
// turns on one event loop, so a burst of either delays the other: claims and swaps wait for a close
// to finish, and requests queue behind it. In a worker thread each has its own loop and, when the
// machine has a spare core, its own CPU. Options and the URL cross the thread boundary as data.
//
// Its port belongs to the app (docs/xrpl-standalone-server.md "Access"): it refuses web pages and
// foreign Host names, and its admin methods and faucet answer only requests carrying credentials
// generated here at every start, which only this process's own connection sends (connection.ts).
// Other programs on the machine may read and submit signed transactions, as against rippled.

export interface EmbeddedLedger {
  /** ws://host:port */
  url: string;
  /** The admin credentials of this start: for the app's own connection only. */
  admin: AdminCredentials;
  /** In this thread: the server itself (tests close ledgers and restart it through it). */
  standalone?: StandaloneLedger;
  /** Where it runs ('thread': a worker thread of this process). */
  runsIn: 'thread' | 'main';
  /** In this thread: its in-process entry for reads (ledger/local-ledger.ts). */
  local?: LocalLedgerRequest;
  /** Changes the close timer's interval (a bench: setup on fast closes, the measure at 1 s). */
  setCloseInterval(ms: number): void;
  /** In a worker thread: its own V8 heap (a bench's memory breakdown); in this thread it is ours. */
  heap?(): Promise<LedgerHeap>;
  close(): Promise<void>;
}

export type EmbeddedLedgerOptions = Pick<
  StandaloneLedgerOptions,
  'port' | 'host' | 'dataDir' | 'closeIntervalMs' | 'clockOffsetMs'
>;

/** The ledger thread's V8 heap (its own isolate), in bytes: `v8.getHeapStatistics()`'s figures. */
export interface LedgerHeap {
  usedBytes: number;
  totalBytes: number;
  externalBytes: number;
}

/** The worker's messages: its URL once it listens, or the error that stopped it starting. */
export type WorkerMessage =
  { url: string } | { error: string } | { closed: true } | { refused: RefusedRequest } | { heap: LedgerHeap };

/** What the app asks the worker: to close, a new close interval, or its heap's size. */
export type WorkerRequest = 'close' | 'heap' | { closeIntervalMs: number };

/** What the worker is started with. */
export interface WorkerData {
  options: EmbeddedLedgerOptions;
  admin: AdminCredentials;
}

export interface EmbeddedLedgerHooks {
  thread: boolean;
  /** Told of each request the port refused (a web page, a foreign Host): worth a log line. */
  onRefused?: (request: RefusedRequest) => void;
}

/** Fresh at every start, never stored: 256 random bits. */
export function newLedgerAdmin(): AdminCredentials {
  return { user: 'ledgerpad', password: randomBytes(32).toString('base64url') };
}

/** The worker's file beside this one: TypeScript under tsx, the bundle's entry in dist/. */
function workerFile(): URL {
  const here = import.meta.url;
  return new URL(here.endsWith('.ts') ? './embedded-ledger-worker.ts' : './embedded-ledger-worker.js', here);
}

export async function startEmbeddedLedger(
  options: EmbeddedLedgerOptions,
  { thread, onRefused }: EmbeddedLedgerHooks,
): Promise<EmbeddedLedger> {
  const admin = newLedgerAdmin();
  if (!thread) {
    const { startStandaloneLedger } = await import('xrpl-standalone');
    const ledger = await startStandaloneLedger({ ...options, admin, onRefused });
    return {
      url: ledger.url,
      admin,
      standalone: ledger,
      runsIn: 'main',
      local: (request) => ledger.request(request as never),
      setCloseInterval: (ms) => ledger.setCloseInterval(ms),
      close: () => ledger.close(),
    };
  }
  const file = workerFile();
  // Under tsx (npm start, benches) a worker does not inherit its loader: register it there first.
  const worker = file.pathname.endsWith('.ts')
    ? new Worker(
        `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})` +
          `.then((tsx) => { tsx.register(); return import(${JSON.stringify(file.href)}); })`,
        { eval: true, workerData: { options, admin } satisfies WorkerData },
      )
    : new Worker(file, { workerData: { options, admin } satisfies WorkerData });
  const url = await new Promise<string>((resolve, reject) => {
    const onMessage = (m: WorkerMessage) => {
      if ('url' in m) resolve(m.url);
      else if ('error' in m) reject(new Error(`embedded ledger: ${m.error}`));
    };
    worker.on('message', onMessage);
    worker.on('message', (m: WorkerMessage) => {
      if ('refused' in m) onRefused?.(m.refused);
    });
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new Error(`embedded ledger thread exited (${code}) before listening`)),
    );
  });
  worker.removeAllListeners('exit');
  worker.removeAllListeners('error');
  // A crash of the ledger thread after start is as fatal as one of the ledger in this thread.
  worker.on('error', (err) => {
    throw err;
  });
  let closing: Promise<void> | undefined;
  return {
    url,
    admin,
    runsIn: 'thread',
    // Checked here as the server checks it: a throw inside the worker would end the thread.
    setCloseInterval: (ms) => {
      if ((options.closeIntervalMs ?? 1000) <= 0)
        throw new Error('this ledger closes only on ledger_accept: it has no close timer');
      if (!Number.isFinite(ms) || ms < 1) throw new RangeError('close interval must be at least 1 ms');
      worker.postMessage({ closeIntervalMs: ms } satisfies WorkerRequest);
    },
    heap: () =>
      new Promise<LedgerHeap>((resolve, reject) => {
        // A thread that has ended answers nothing: refuse instead of leaving the caller waiting.
        const onExit = () => reject(new Error('the embedded ledger thread has ended'));
        const onMessage = (m: WorkerMessage) => {
          if (!('heap' in m)) return;
          worker.off('message', onMessage);
          worker.off('exit', onExit);
          resolve(m.heap);
        };
        worker.on('message', onMessage);
        worker.once('exit', onExit);
        worker.postMessage('heap' satisfies WorkerRequest);
      }),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        worker.postMessage('close' satisfies WorkerRequest);
      })),
  };
}
