// One port for everything, as rippled's [port_rpc_admin_local] + [port_ws_admin_local] merged:
// WebSocket upgrades, JSON-RPC POSTs, and the faucet's POST /accounts. Every request and upgrade
// passes the access rules first (access.ts): web pages are refused before a byte of their body is
// read, and the caller's admin standing goes with each request to the dispatcher.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { callerOf, isAdmin, REFUSAL_TEXT, refusalOf, type Refusal, type RefusedRequest } from './access';
import type { ServerServices } from './context';
import { handleJsonRpc, WsBatcher } from './dispatcher';
import type { Faucet } from './faucet';
import { isObject } from './params';

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

function refused(
  req: IncomingMessage,
  reason: Refusal,
  transport: RefusedRequest['transport'],
): RefusedRequest {
  return {
    reason,
    method: req.method ?? '',
    transport,
    ...(req.headers.origin !== undefined ? { origin: String(req.headers.origin) } : {}),
    ...(req.headers.host !== undefined ? { host: req.headers.host } : {}),
    ...(req.socket.remoteAddress ? { remoteAddress: req.socket.remoteAddress } : {}),
  };
}

export async function listen(
  services: ServerServices,
  faucet: Faucet | undefined,
  options: { host: string; port: number; onRefused?: (request: RefusedRequest) => void },
): Promise<Listening> {
  const report = (request: RefusedRequest): void => {
    try {
      options.onRefused?.(request);
    } catch (err) {
      console.error('xrpl-standalone: onRefused failed', err);
    }
  };
  const http = createServer((req, res) => {
    const refusal = refusalOf(req, services.access);
    if (refusal) {
      report(refused(req, refusal, 'http'));
      // Answered before the body is read; the connection goes with it.
      res.setHeader('Connection', 'close');
      send(res, 403, `${REFUSAL_TEXT[refusal]}\n`, false);
      return;
    }
    const caller = callerOf(req, services.access);
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
          // The faucet spends the genesis account's XRP: admin only, like ledger_accept. Its
          // credentials come as the request's (Basic) or in the body, as rippled's params.
          if (!isAdmin(caller, isObject(body) ? body : {}, services.access)) {
            send(res, 403, JSON.stringify({ error: 'Bad credentials.' }), true);
            return;
          }
          const reply = faucet.handle(body);
          send(res, reply.status, JSON.stringify(reply.body), true);
          return;
        }
        const reply = await handleJsonRpc(services, text, caller);
        send(res, reply.status, reply.body, reply.json);
      } catch (err) {
        console.error('xrpl-standalone: HTTP request failed', err);
        if (!res.headersSent) send(res, 500, 'Internal error', false);
      }
    })();
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY_BYTES });
  http.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const refusal = refusalOf(req, services.access);
    if (refusal) {
      report(refused(req, refusal, 'websocket'));
      const text = `${REFUSAL_TEXT[refusal]}\n`;
      socket.end(
        'HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain; charset=UTF-8\r\n' +
          `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  const batcher = new WsBatcher(services);
  const sockets = new Set<WebSocket>();
  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    sockets.add(ws);
    // Decided once, at the upgrade: Basic credentials there make every request of the connection
    // admin; without them each request may still carry rippled's admin_user/admin_password.
    const caller = callerOf(req, services.access);
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
      batcher.push({ text, caller, subscriber, deliver });
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
