// Worker thread: the benchmark's WebSocket client, on its own core like a real client process, so
// the server's figure excludes the client's JSON work. One worker serves every round (a real
// client is a long-running, warmed-up process; a fresh thread per round would run the client's
// code cold and JIT-compile it again during each measured round). For each round it connects,
// pipelines `submit` for each chunk of pre-signed blobs, then `ledger_accept`, and reports the
// elapsed time and any non-tesSUCCESS result.
import { parentPort } from 'node:worker_threads';
import WebSocket from 'ws';

async function round({ url, blobs, closeEvery }) {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let nextId = 1;
  const pending = new Map();
  ws.on('message', (data) => {
    const reply = JSON.parse(String(data));
    const resolve = pending.get(reply.id);
    if (resolve) {
      pending.delete(reply.id);
      resolve(reply);
    }
  });
  const request = (body) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ ...body, id, api_version: 2 }));
    });

  const failures = [];
  const started = performance.now();
  // Everything is pipelined: WebSocket order guarantees each ledger_accept follows its chunk, and
  // the server never waits for the client between chunks.
  const replies = [];
  for (let offset = 0; offset < blobs.length; offset += closeEvery) {
    for (const tx_blob of blobs.slice(offset, offset + closeEvery))
      replies.push(request({ command: 'submit', tx_blob }));
    replies.push(request({ command: 'ledger_accept' }));
  }
  for (const reply of await Promise.all(replies)) {
    if (reply.result?.ledger_current_index !== undefined) continue;
    const result = reply.result?.engine_result ?? reply.error;
    if (result !== 'tesSUCCESS' && failures.length < 5) failures.push(result);
  }
  const seconds = (performance.now() - started) / 1000;
  ws.close();
  return { seconds, failures };
}

parentPort.on('message', (job) => {
  round(job).then(
    (result) => parentPort.postMessage(result),
    (err) => parentPort.postMessage({ error: String(err) }),
  );
});
