import { createServer } from 'node:http';
import WebSocket, { WebSocketServer } from 'ws';
import { textFrame } from '../src/realtime/hub';

// The hub's write loop alone, in-process (docs/realtime.md): N loopback sockets (`npx tsx
// bench/socket-fanout-loop.ts 9000`; both ends live in this process, so N ≤ ~9,500 under a 20,000
// file limit), one frame written to all of them per round, the loop's CPU time (user + system,
// the system call included) per variant, 5 rounds each, alternating: ws.send, one write of the
// pre-framed buffer, and that write behind the hub's checks. A fourth argument K > 1 sends K frames
// per round (a ledger's trades): `perFrame` writes each to each socket, `together` writes the K
// frames concatenated once per socket (the hub since issue 40), e.g.
// `npx tsx bench/socket-fanout-loop.ts 1000 perFrame,together 200`.
const N = Number(process.argv[2] ?? 10000);
const K = Number(process.argv[4] ?? 1);
const server = createServer();
const wss = new WebSocketServer({ server, perMessageDeflate: false });
const conns: WebSocket[] = [];
wss.on('connection', (ws) => conns.push(ws));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as { port: number }).port;
let got = 0;
const clients: WebSocket[] = [];
for (let i = 0; i < N; i += 250) {
  await Promise.all(
    Array.from(
      { length: Math.min(250, N - i) },
      (_, k) =>
        new Promise<void>((res, rej) => {
          const c = new WebSocket(`ws://127.0.0.1:${port}/`, {
            perMessageDeflate: false,
            localAddress: `127.0.0.${1 + ((i + k) % 4)}`,
          });
          c.on('open', () => res());
          c.on('error', rej);
          c.on('message', () => {
            got += 1 / K;
          });
          clients.push(c);
        }),
    ),
  );
}
while (conns.length < N) await new Promise((r) => setTimeout(r, 10));
const payload = Buffer.from(
  JSON.stringify({
    event: 'new_trade',
    data: {
      type: 'BUY',
      baseCurrency: '4245',
      baseIssuer: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
      quoteCurrency: 'XRP',
      quoteIssuer: null,
      price: '0.000123',
    },
  }),
);
type Sock = { write(b: Buffer): boolean; _handle: { writeBuffer(req: unknown, b: Buffer): number } };
const variants: Record<string, () => void> = {
  wsSend: () => {
    for (const ws of conns) ws.send(payload);
  },
  socketWrite: () => {
    const f = textFrame(payload);
    for (const ws of conns) (ws as unknown as { _socket: Sock })._socket.write(f);
  },
  perFrame: () => {
    for (let k = 0; k < K; k++) {
      const f = textFrame(payload);
      for (const ws of conns) (ws as unknown as { _socket: Sock })._socket.write(f);
    }
  },
  together: () => {
    const f = Buffer.concat(Array.from({ length: K }, () => textFrame(payload)));
    for (const ws of conns) (ws as unknown as { _socket: Sock })._socket.write(f);
  },
  socketWriteChecks: () => {
    const f = textFrame(payload);
    for (const ws of conns) {
      if (ws.readyState !== ws.OPEN || ws.bufferedAmount > 1e6) continue;
      const inner = ws as unknown as { _socket: Sock; _sender: { _state: number }; extensions: string };
      if (inner._sender._state !== 0 || inner.extensions !== '') continue;
      inner._socket.write(f);
    }
  },
};
const order = (process.argv[3] ?? 'wsSend,socketWrite,socketWriteChecks').split(',');
const res: Record<string, number[]> = {};
for (let round = 0; round < 5; round++) {
  for (const v of order) {
    got = 0;
    const c0 = process.cpuUsage();
    variants[v]!();
    const c = process.cpuUsage(c0);
    (res[v] ??= []).push((c.user + c.system) / 1000);
    while (got < N - 1e-6) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setTimeout(r, 50));
  }
}
for (const [v, xs] of Object.entries(res)) {
  xs.sort((a, b) => a - b);
  console.log(
    v.padEnd(20),
    'loop CPU ms median',
    xs[2]!.toFixed(1),
    'all',
    xs.map((x) => x.toFixed(0)).join(' '),
    'µs/socket',
    ((xs[2]! * 1000) / N).toFixed(1),
  );
}
for (const c of clients) c.terminate();
process.exit(0);
