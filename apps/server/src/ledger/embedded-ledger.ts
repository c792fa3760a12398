import { Worker } from 'node:worker_threads';
import type { StandaloneLedgerOptions } from 'xrpl-standalone';
import type { LocalLedgerRequest } from './local-ledger';

// The embedded stand-alone ledger (`npm start`, tests, benches) is a server of its own behind
// xrpl.js: the app reaches it only over its WebSocket. Run in this thread, its work (applying
// transactions, closing ledgers, hashing state) and the API's (routes, signing, the indexer) take
// turns on one event loop, so a burst of either delays the other: claims and swaps wait for a close
// to finish, and requests queue behind it. In a worker thread each has its own loop and, when the
// machine has a spare core, its own CPU. Options and the URL cross the thread boundary as data.

export interface EmbeddedLedger {
  /** ws://host:port */
  url: string;
  /** Where it runs ('thread': a worker thread of this process). */
  runsIn: 'thread' | 'main';
  /** In this thread: its in-process entry for reads (ledger/local-ledger.ts). */
  local?: LocalLedgerRequest;
  close(): Promise<void>;
}

export type EmbeddedLedgerOptions = Pick<
  StandaloneLedgerOptions,
  'port' | 'host' | 'dataDir' | 'closeIntervalMs' | 'clockOffsetMs'
>;

/** The worker's messages: its URL once it listens, or the error that stopped it starting. */
export type WorkerMessage = { url: string } | { error: string } | { closed: true };

/** The worker's file beside this one: TypeScript under tsx, the bundle's entry in dist/. */
function workerFile(): URL {
  const here = import.meta.url;
  return new URL(here.endsWith('.ts') ? './embedded-ledger-worker.ts' : './embedded-ledger-worker.js', here);
}

export async function startEmbeddedLedger(
  options: EmbeddedLedgerOptions,
  { thread }: { thread: boolean },
): Promise<EmbeddedLedger> {
  if (!thread) {
    const { startStandaloneLedger } = await import('xrpl-standalone');
    const ledger = await startStandaloneLedger(options);
    return {
      url: ledger.url,
      runsIn: 'main',
      local: (request) => ledger.request(request as never),
      close: () => ledger.close(),
    };
  }
  const file = workerFile();
  // Under tsx (npm start, benches) a worker does not inherit its loader: register it there first.
  const worker = file.pathname.endsWith('.ts')
    ? new Worker(
        `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})` +
          `.then((tsx) => { tsx.register(); return import(${JSON.stringify(file.href)}); })`,
        { eval: true, workerData: options },
      )
    : new Worker(file, { workerData: options });
  const url = await new Promise<string>((resolve, reject) => {
    const onMessage = (m: WorkerMessage) => {
      if ('url' in m) resolve(m.url);
      else if ('error' in m) reject(new Error(`embedded ledger: ${m.error}`));
    };
    worker.on('message', onMessage);
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
    runsIn: 'thread',
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        worker.postMessage('close');
      })),
  };
}
