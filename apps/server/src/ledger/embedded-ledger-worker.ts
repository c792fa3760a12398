import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { startStandaloneLedger } from 'xrpl-standalone';
import type { WorkerData, WorkerMessage, WorkerRequest } from './embedded-ledger';

// The embedded ledger's thread (see embedded-ledger.ts): starts the stand-alone ledger server,
// reports its URL, and closes it (flushing its store) when asked, which ends the thread.

const port = parentPort!;
const send = (m: WorkerMessage) => port.postMessage(m);

try {
  const { options, admin } = workerData as WorkerData;
  const ledger = await startStandaloneLedger({
    ...options,
    admin,
    onRefused: (refused) => send({ refused }),
  });
  port.on('message', (m: WorkerRequest) => {
    // A bench runs its setup on fast closes and its measured part at production's interval.
    if (typeof m === 'object') return ledger.setCloseInterval(m.closeIntervalMs);
    if (m === 'heap') {
      // This thread's own isolate (process.memoryUsage() in the main thread does not count it).
      const h = getHeapStatistics();
      return send({
        heap: {
          usedBytes: h.used_heap_size,
          totalBytes: h.total_heap_size,
          externalBytes: h.external_memory,
        },
      });
    }
    void ledger.close().finally(() => {
      send({ closed: true });
      port.close();
    });
  });
  send({ url: ledger.url });
} catch (err) {
  send({ error: err instanceof Error ? err.message : String(err) });
  port.close();
}
