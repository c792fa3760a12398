import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from 'xrpl';
import { watchTrades, type SocketFigures, type TradeWatchers } from './trade-watchers';
import { sleep } from './wait';

// Issue 40's hot launch, the users' side: the buyers' POST /api/swap and the token page's sockets.
// The 100-user test runs them in its own process (`inProcessClients`). The bench runs them in a
// child process of their own (`clientProcess`, this file as its entry): as deployed, the server's
// event loop, CPU and RSS serve the requests and the sockets, and do not also run 1,000 HTTP
// clients and 1,000 WebSocket clients. The child reports its figures back as JSON over IPC.

export interface BuyerRequest {
  headers: Record<string, string>;
  address: string;
}

export interface HotToken {
  currency: string;
  issuer: string;
  ticker: string;
}

export interface Answer {
  status: number;
  body: { message?: string; hash?: string };
  ms: number;
}

export interface BurstClients {
  /** Opens the token page's sockets (none when `sockets` is 0), before the first buy. */
  open(): Promise<void>;
  /**
   * Every buyer's POST /api/swap, the i-th sent `i·windowMs/n` after the first (0: all at once); each
   * answer with its time from its own send, and the burst's wall time.
   */
  fire(
    buyers: BuyerRequest[],
    amountXrp: string,
    windowMs: number,
  ): Promise<{ answers: Answer[]; burstMs: number }>;
  /** The sockets' figures for the burst's trades (hash → validated ledger); undefined without sockets. */
  finish(trades: Map<string, number>): Promise<SocketFigures | undefined>;
  close(): void;
}

/**
 * Every buyer buys `amountXrp` of the token over HTTP, one Idempotency-Key each. The load is open:
 * buyer i sends at `i·windowMs/n` after the first whatever the earlier answers (people arriving on a
 * launch do not wait for each other), so a slow server meets the same schedule and its queue shows in
 * the answer times, each timed from its own send. `windowMs` 0: all in one turn (the spike).
 */
export async function fireBuys(
  base: string,
  token: HotToken,
  buyers: BuyerRequest[],
  amountXrp: string,
  windowMs = 0,
): Promise<{ answers: Answer[]; burstMs: number }> {
  const t0 = performance.now();
  const answers = await Promise.all(
    buyers.map(async (b, i): Promise<Answer> => {
      const due = t0 + (i * windowMs) / buyers.length;
      // Time passing is the point here (each buyer's arrival on the schedule), not a wait for an event.
      if (due > performance.now()) await sleep(due - performance.now());
      const start = performance.now();
      try {
        const res = await postJson(
          `${base}/api/swap`,
          { ...b.headers, 'idempotency-key': randomUUID() },
          JSON.stringify({
            walletAddress: b.address,
            issuer: token.issuer,
            token: token.ticker,
            amount: amountXrp,
            type: 'BUY',
            slippage: '50',
          }),
        );
        let body: Answer['body'] = {};
        try {
          body = JSON.parse(res.text) as Answer['body'];
        } catch {
          // Not JSON: the status alone says what happened.
        }
        return { status: res.status, body, ms: performance.now() - start };
      } catch (err) {
        return { status: 0, body: { message: String(err) }, ms: performance.now() - start };
      }
    }),
  );
  return { answers, burstMs: performance.now() - t0 };
}

/** Kept-alive connections, as a browser keeps its own to the site between requests. */
const agent = new Agent({ keepAlive: true });

/**
 * A POST through node:http: fetch (undici, web streams) cost ~1 ms of this process a request, beside
 * the server it measures on the same two cores.
 */
function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent,
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The clients in this process, sharing its event loop with the server (the 100-user test). */
export function inProcessClients(
  base: string,
  client: Client,
  token: HotToken,
  sockets: number,
): BurstClients {
  let watchers: TradeWatchers | undefined;
  return {
    async open() {
      if (sockets) watchers = await watchTrades(base, client, token, sockets);
    },
    fire: (buyers, amountXrp, windowMs) => fireBuys(base, token, buyers, amountXrp, windowMs),
    async finish(trades) {
      return watchers?.finish(trades);
    },
    close: () => watchers?.close(),
  };
}

/** Parent → child. */
type ToChild =
  | { open: { base: string; ledgerUrl: string; token: HotToken; sockets: number } }
  | { fire: { buyers: BuyerRequest[]; amountXrp: string; windowMs: number } }
  | { finish: Array<[string, number]> };

/** Child → parent. */
type FromChild =
  | { opened: true }
  | { fired: { answers: Answer[]; burstMs: number } }
  | { finished: SocketFigures | null; rssMb: number }
  | { error: string };

/**
 * The clients in a child process (the bench): its own event loop and its own connection to the
 * ledger's stream, so each socket arrival is timed against the close as that process saw it.
 * `clientRssMb` holds the child's RSS once `finish` has answered.
 */
export function clientProcess(
  base: string,
  ledgerUrl: string,
  token: HotToken,
  sockets: number,
): BurstClients & { clientRssMb?: number } {
  // Under tsx the child inherits its loader through execArgv.
  const child = fork(fileURLToPath(import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let exited: Error | undefined;
  const waiters: Array<{ resolve: (m: FromChild) => void; reject: (e: Error) => void }> = [];
  child.on('message', (m: FromChild) => {
    const w = waiters.shift();
    if (!w) return;
    if ('error' in m) w.reject(new Error(`hot-launch clients: ${m.error}`));
    else w.resolve(m);
  });
  child.on('exit', (code) => {
    exited = new Error(`hot-launch clients exited (${code})`);
    for (const w of waiters.splice(0)) w.reject(exited);
  });
  const ask = (m: ToChild) =>
    new Promise<FromChild>((resolve, reject) => {
      if (exited) return reject(exited);
      waiters.push({ resolve, reject });
      child.send(m);
    });
  const self: BurstClients & { clientRssMb?: number } = {
    async open() {
      await ask({ open: { base, ledgerUrl, token, sockets } });
    },
    async fire(buyers, amountXrp, windowMs) {
      const m = await ask({ fire: { buyers, amountXrp, windowMs } });
      if (!('fired' in m)) throw new Error('hot-launch clients: no answers');
      return m.fired;
    },
    async finish(trades) {
      const m = await ask({ finish: [...trades] });
      if (!('finished' in m)) throw new Error('hot-launch clients: no socket figures');
      self.clientRssMb = m.rssMb;
      return m.finished ?? undefined;
    },
    close() {
      if (!exited) child.kill();
    },
  };
  return self;
}

/** The child's side: one step per message, in order. */
function serveParent(): void {
  let base = '';
  let token: HotToken | undefined;
  let ledger: Client | undefined;
  let watchers: TradeWatchers | undefined;
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  const send = (m: FromChild) => process.send!(m);
  const step = async (m: ToChild): Promise<FromChild> => {
    if ('open' in m) {
      ({ base, token } = m.open);
      ledger = new Client(m.open.ledgerUrl);
      await ledger.connect();
      if (m.open.sockets) watchers = await watchTrades(base, ledger, token, m.open.sockets);
      return { opened: true };
    }
    if ('fire' in m)
      return { fired: await fireBuys(base, token!, m.fire.buyers, m.fire.amountXrp, m.fire.windowMs) };
    const finished = watchers ? await watchers.finish(new Map(m.finish)) : null;
    clearInterval(sampler);
    await ledger?.disconnect();
    return { finished, rssMb: Math.round(Math.max(peakRss, process.memoryUsage().rss) / 1024 / 1024) };
  };
  let chain = Promise.resolve();
  process.on('message', (m: ToChild) => {
    chain = chain.then(() =>
      step(m).then(
        (answer) => void send(answer),
        (err: unknown) => void send({ error: err instanceof Error ? err.message : String(err) }),
      ),
    );
  });
  process.on('disconnect', () => process.exit(0));
}

if (process.send && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) serveParent();
