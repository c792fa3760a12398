import { RECONNECT_BASE_MS, RECONNECT_CAP_MS, SOCKET_TOKEN_CACHE_MS } from '@ledgerpad/shared';
import type { SocketServerMessage } from '@ledgerpad/shared';
import { apiGet } from './api';

// The live socket (spec 000 §7): one per tab, opened on first use. The token comes from
// /api/auth/socket-token and is reused for 9 minutes; a dropped socket reconnects after
// 1 s × 2^attempt (at most 30 s) and sends its subscriptions again.

type Frame = SocketServerMessage;
type Listener = (data: unknown) => void;

let socket: WebSocket | undefined;
let token: { value: string; at: number } | undefined;
/** The server's close code for a socket whose session ended. */
const SIGNED_OUT_CLOSE = 4401;
let attempt = 0;
let retry: ReturnType<typeof setTimeout> | undefined;
const listeners = new Map<string, Set<Listener>>();
const subscriptions = new Set<string>();

async function socketToken(): Promise<string> {
  if (token && Date.now() - token.at < SOCKET_TOKEN_CACHE_MS) return token.value;
  const { token: value } = await apiGet<{ token: string }>('/api/auth/socket-token');
  token = { value, at: Date.now() };
  return value;
}

async function connect(): Promise<void> {
  if (socket && socket.readyState <= WebSocket.OPEN) return;
  clearTimeout(retry);
  let value: string;
  try {
    value = await socketToken();
  } catch {
    return schedule();
  }
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${scheme}://${location.host}/ws?token=${encodeURIComponent(value)}`);
  socket = ws;
  let opened = false;
  ws.onopen = () => {
    opened = true;
    attempt = 0;
    for (const s of subscriptions) ws.send(s);
  };
  ws.onmessage = (event) => {
    let frame: Frame;
    try {
      frame = JSON.parse(String(event.data)) as Frame;
    } catch {
      return;
    }
    for (const l of listeners.get(frame.event) ?? []) l(frame.data);
  };
  ws.onclose = (event) => {
    if (socket === ws) socket = undefined;
    // 4401: the session ended (signed out here or elsewhere); a socket refused before it opened may
    // carry such a token too. Either way the next attempt asks for a fresh token.
    if (event.code === SIGNED_OUT_CLOSE || !opened) token = undefined;
    if (listeners.size > 0) schedule();
  };
}

function schedule(): void {
  clearTimeout(retry);
  const delay = Math.min(RECONNECT_CAP_MS, RECONNECT_BASE_MS * 2 ** attempt++);
  retry = setTimeout(() => void connect(), delay);
}

/** Calls `listener` with the data of every `event` frame; returns the unsubscribe function. */
export function onSocketEvent<E extends Frame['event']>(
  event: E,
  listener: (data: Extract<Frame, { event: E }>['data']) => void,
): () => void {
  let set = listeners.get(event);
  if (!set) listeners.set(event, (set = new Set()));
  set.add(listener as Listener);
  void connect();
  return () => {
    set.delete(listener as Listener);
    if (set.size === 0) listeners.delete(event);
    if (listeners.size === 0) {
      clearTimeout(retry);
      socket?.close();
      socket = undefined;
    }
  };
}

/** Subscribes to a token's trades (kept across reconnects). */
export function subscribeToken(tokenCode: string, issuer: string): () => void {
  const message = JSON.stringify({ event: 'subscribe', token: tokenCode, issuer });
  subscriptions.add(message);
  if (socket?.readyState === WebSocket.OPEN) socket.send(message);
  return () => {
    subscriptions.delete(message);
    if (socket?.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ event: 'unsubscribe', token: tokenCode, issuer }));
    }
  };
}
