import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from 'xrpl';
import { watchTrades, type SocketFigures, type TradeWatchers } from './trade-watchers';

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
  /** Every buyer's POST /api/swap at once; each answer with its time, and the burst's wall time. */
  fire(buyers: BuyerRequest[], amountXrp: string): Promise<{ answers: Answer[]; burstMs: number }>;
  /** The sockets' figures for the burst's trades (hash → validated ledger); undefined without sockets. */
  finish(trades: Map<string, number>): Promise<SocketFigures | undefined>;
  close(): void;
}

/** Every buyer buys `amountXrp` of the token at once over HTTP, one Idempotency-Key each. */
export async function fireBuys(
  base: string,
  token: HotToken,
  buyers: BuyerRequest[],
  amountXrp: string,
): Promise<{ answers: Answer[]; burstMs: number }> {
  const t0 = performance.now();
  const answers = await Promise.all(
    buyers.map(async (b): Promise<Answer> => {
      const start = performance.now();
      try {
        const res = await fetch(`${base}/api/swap`, {
          method: 'POST',
          headers: { ...b.headers, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
          body: JSON.stringify({
            walletAddress: b.address,
            issuer: token.issuer,
            token: token.ticker,
            amount: amountXrp,
            type: 'BUY',
            slippage: '50',
          }),
        });
        const body = (await res.json().catch(() => ({}))) as Answer['body'];
        return { status: res.status, body, ms: performance.now() - start };
      } catch (err) {
        return { status: 0, body: { message: String(err) }, ms: performance.now() - start };
      }
    }),
  );
  return { answers, burstMs: performance.now() - t0 };
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
    fire: (buyers, amountXrp) => fireBuys(base, token, buyers, amountXrp),
    async finish(trades) {
      return watchers?.finish(trades);
    },
    close: () => watchers?.close(),
  };
}

/** Parent → child. */
type ToChild =
  | { open: { base: string; ledgerUrl: string; token: HotToken; sockets: number } }
  | { fire: { buyers: BuyerRequest[]; amountXrp: string } }
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
    async fire(buyers, amountXrp) {
      const m = await ask({ fire: { buyers, amountXrp } });
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
    if ('fire' in m) return { fired: await fireBuys(base, token!, m.fire.buyers, m.fire.amountXrp) };
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
