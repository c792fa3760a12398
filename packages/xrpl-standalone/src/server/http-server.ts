// One port for everything, as rippled's [port_rpc_admin_local] + [port_ws_admin_local] merged:
// WebSocket upgrades, JSON-RPC POSTs, and the faucet's POST /accounts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ServerServices } from './context';
import { handleJsonRpc, WsBatcher } from './dispatcher';
import type { Faucet } from './faucet';

const MAX_BODY_BYTES = 1 << 20;
/** A client that lets this much pile up unread is dropped, as rippled drops slow consumers. */
const MAX_BUFFERED_BYTES = 64 << 20;

export interface Listening {
  port: number;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        // Keep draining (and discarding) so the client can read the 413 instead of a reset.
        if (chunks.length > 0) chunks.length = 0;
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(undefined));
  });
}

function send(res: ServerResponse, status: number, body: string, json: boolean): void {
  res.writeHead(status, {
    'Content-Type': json ? 'application/json; charset=UTF-8' : 'text/plain; charset=UTF-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

export async function listen(
  services: ServerServices,
  faucet: Faucet | undefined,
  options: { host: string; port: number },
): Promise<Listening> {
  const http = createServer((req, res) => {
    void (async () => {
      try {
        if (req.method !== 'POST') {
          send(
            res,
            req.method === 'GET' ? 200 : 405,
            'xrpl-standalone: POST JSON-RPC here, or connect a WebSocket.\n',
            false,
          );
          return;
        }
        const text = await readBody(req);
        if (text === undefined) {
          res.setHeader('Connection', 'close');
          send(res, 413, 'Request too large', false);
          return;
        }
        const path = (req.url ?? '/').split('?')[0];
        if (faucet && path === '/accounts') {
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : {};
          } catch {
            send(res, 400, JSON.stringify({ error: 'Invalid JSON' }), true);
            return;
          }
          const reply = faucet.handle(body);
          send(res, reply.status, JSON.stringify(reply.body), true);
          return;
        }
        const reply = await handleJsonRpc(services, text);
        send(res, reply.status, reply.body, reply.json);
      } catch (err) {
        console.error('xrpl-standalone: HTTP request failed', err);
        if (!res.headersSent) send(res, 500, 'Internal error', false);
      }
    })();
  });
  const wss = new WebSocketServer({ server: http, maxPayload: MAX_BODY_BYTES });
  const batcher = new WsBatcher(services);
  const sockets = new Set<WebSocket>();
  wss.on('connection', (ws) => {
    sockets.add(ws);
    // A message that cannot be serialised or sent must never take the server down.
    // Replies produced in one event-loop turn (pipelined requests, stream bursts) leave in one
    // socket write instead of one each.
    const socket = (ws as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
    let corked = false;
    const deliver = (message: object): void => {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
        ws.terminate();
        return;
      }
      try {
        if (socket && !corked) {
          corked = true;
          socket.cork();
          process.nextTick(() => {
            corked = false;
            socket.uncork();
          });
        }
        ws.send(JSON.stringify(message));
      } catch (err) {
        console.error('xrpl-standalone: could not send a WebSocket message', err);
      }
    };
    const subscriber = services.subscriptions.add(deliver);
    ws.on('message', (data) => {
      const text = Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Array.isArray(data)
          ? Buffer.concat(data).toString('utf8')
          : Buffer.from(data).toString('utf8');
      batcher.push({ text, subscriber, deliver });
    });
    ws.on('close', () => {
      sockets.delete(ws);
      services.subscriptions.remove(subscriber);
    });
    ws.on('error', () => ws.terminate());
  });
  wss.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  return {
    port,
    close: async () => {
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
