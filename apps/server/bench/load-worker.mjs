// A loopback HTTP load generator in a worker thread or a child process (on its own core, like a
// separate client), so the server's figures exclude the client's work. `connections` keep-alive connections each send
// the next request as soon as the previous answer has arrived (closed loop, like autocannon), cycling
// through `paths`; every latency is kept. Replies the answer counts and latencies.
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

// A worker thread gets its options as workerData; a child process (bench/load.ts's `process`
// mode) as its first message, and answers through IPC.
const opts = parentPort ? workerData : await new Promise((resolve) => process.once('message', resolve));
const reply = (m) => (parentPort ? parentPort.postMessage(m) : process.send(m, () => process.exit(0)));
const { port, paths, connections, seconds, headers = {} } = opts;
const agent = new Agent({ keepAlive: true, maxSockets: connections });
const latencies = [];
const statuses = {};
let errors = 0;
let next = 0;
const until = performance.now() + seconds * 1000;

const once = (path) =>
  new Promise((resolve) => {
    const started = performance.now();
    const req = request({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => {
        latencies.push(performance.now() - started);
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        resolve();
      });
    });
    req.on('error', () => {
      errors += 1;
      resolve();
    });
    req.end();
  });

const loop = async () => {
  while (performance.now() < until) await once(paths[next++ % paths.length]);
};
const started = performance.now();
await Promise.all(Array.from({ length: connections }, loop));
const elapsed = (performance.now() - started) / 1000;
agent.destroy();
reply({ latencies, statuses, errors, seconds: elapsed });
