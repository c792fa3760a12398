// Who may use the port, and who is admin. Two rules, checked on every HTTP request and WebSocket
// upgrade before anything else is read (docs/xrpl-standalone-server.md "Access"):
// - The port is not for web pages. A request that carries a browser's `Origin` header, or a `Host`
//   that is not a loopback name (DNS rebinding: a page whose name now points at 127.0.0.1), is
//   refused with 403. rippled has no such rule; a server on a developer's machine needs it, because
//   any page the developer opens can reach 127.0.0.1.
// - Admin is rippled's rule (Role.cpp `isAdmin`): the peer is on the loopback interface (rippled's
//   `admin = 127.0.0.1`) and, when the port has credentials (`admin_user` / `admin_password`), the
//   request carries them: in its params as on rippled, or (an extension, so a client library sets
//   them once) as HTTP Basic credentials on the request or on the WebSocket upgrade, which then
//   holds for every request of that connection.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';

/** rippled's `admin_user` / `admin_password` of a port. */
export interface AdminCredentials {
  user: string;
  password: string;
}

export interface AccessPolicy {
  /** None: every loopback peer is admin (rippled's `admin = 127.0.0.1` without a password). */
  readonly credentials?: AdminCredentials;
  /** Host names (lower case, no port) accepted in `Host` besides the loopback ones. */
  readonly hosts: ReadonlySet<string>;
}

/** Who sent a request: from the loopback interface or not, and already admin or not. */
export interface Caller {
  readonly loopback: boolean;
  /** Admin for every request: credentials shown by the connection, or the embedding process itself. */
  readonly admin: boolean;
}

/** The embedding process (`StandaloneLedger.request`): it started the server, so it is admin. */
export const LOCAL_CALLER: Caller = { loopback: true, admin: true };

export type Refusal = 'origin' | 'host';

/** A request refused by the access rules (for the embedder's log or counters). */
export interface RefusedRequest {
  reason: Refusal;
  method: string;
  /** 'websocket' for an upgrade, 'http' otherwise. */
  transport: 'websocket' | 'http';
  origin?: string;
  host?: string;
  remoteAddress?: string;
}

export const REFUSAL_TEXT: Record<Refusal, string> = {
  origin: 'Forbidden: this port does not serve web pages (the request carries an Origin header).',
  host: 'Forbidden: the Host header must name this machine (localhost, 127.0.0.1 or [::1]).',
};

/** A peer address on the loopback interface: 127.0.0.0/8, ::1, or 127.x mapped into IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIPv4(v4)) return v4.startsWith('127.');
  // Any spelling of ::1 (0:0:0:0:0:0:0:1, ...): the URL parser writes IPv6 literals canonically.
  return isIPv6(address) && new URL(`http://[${address}]/`).hostname === '[::1]';
}

/** The name part of a Host header, lower case, without port or IPv6 brackets; undefined if malformed. */
export function hostName(header: string): string | undefined {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end < 0) return undefined;
    const rest = value.slice(end + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return undefined;
    return value.slice(1, end);
  }
  const match = /^([^:]+)(?::\d{1,5})?$/.exec(value);
  return match?.[1];
}

/** localhost, or an address literal on the loopback interface. */
function isLoopbackName(name: string): boolean {
  return name === 'localhost' || isLoopbackAddress(name);
}

/** Why a request must be refused before it is read, or undefined when it may go on. */
export function refusalOf(req: IncomingMessage, policy: AccessPolicy): Refusal | undefined {
  // Any value counts, `null` included (sandboxed frames, file: pages): only browsers send Origin.
  if (req.headers.origin !== undefined) return 'origin';
  const host = req.headers.host;
  // Browsers always send Host; a client that sends none names no host a page could have rebound.
  if (host === undefined) return undefined;
  const name = hostName(host);
  if (name === undefined || !(isLoopbackName(name) || policy.hosts.has(name))) return 'host';
  return undefined;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Equal strings, in time that does not depend on where they differ. */
function same(given: unknown, expected: string): boolean {
  return typeof given === 'string' && timingSafeEqual(digest(given), digest(expected));
}

function credentialsMatch(user: unknown, password: unknown, expected: AdminCredentials): boolean {
  // Both compared, always: the time taken does not say which one was wrong.
  const userOk = same(user, expected.user);
  return same(password, expected.password) && userOk;
}

/** The `Authorization` header value that makes a request or connection admin. */
export function basicAuthorization(credentials: AdminCredentials): string {
  return `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`, 'utf8').toString('base64')}`;
}

/** `Authorization: Basic base64(user:password)` naming the port's credentials. */
function basicMatches(header: string | undefined, expected: AdminCredentials): boolean {
  const encoded = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '')?.[1];
  if (!encoded) return false;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && credentialsMatch(decoded.slice(0, colon), decoded.slice(colon + 1), expected);
}

/** The caller of an HTTP request or WebSocket connection. */
export function callerOf(req: IncomingMessage, policy: AccessPolicy): Caller {
  const loopback = isLoopbackAddress(req.socket.remoteAddress);
  const admin =
    loopback &&
    (policy.credentials === undefined || basicMatches(req.headers.authorization, policy.credentials));
  return { loopback, admin };
}

/** rippled's `isAdmin` for one request: its caller, and the credentials in its params. */
export function isAdmin(caller: Caller, params: Record<string, unknown>, policy: AccessPolicy): boolean {
  if (caller.admin) return true;
  if (!caller.loopback || policy.credentials === undefined) return false;
  return credentialsMatch(params.admin_user, params.admin_password, policy.credentials);
}

export function accessPolicy(options: {
  admin?: AdminCredentials;
  allowedHosts?: readonly string[];
  host: string;
}): AccessPolicy {
  const { admin } = options;
  if (admin && (typeof admin.user !== 'string' || typeof admin.password !== 'string' || !admin.password)) {
    throw new TypeError('admin credentials need a user and a non-empty password');
  }
  const hosts = new Set<string>();
  for (const name of options.allowedHosts ?? []) {
    const parsed = hostName(name);
    if (!parsed) throw new TypeError(`not a host name: ${name}`);
    hosts.add(parsed);
  }
  // A server bound to one address of this machine is reached by that address.
  const bound = options.host.replace(/^\[|\]$/g, '').toLowerCase();
  if ((isIPv4(bound) && bound !== '0.0.0.0') || (isIPv6(bound) && bound !== '::')) hosts.add(bound);
  return { credentials: admin ? { ...admin } : undefined, hosts };
}

/**
 * An `onRefused` that writes one line for the first refused request, then at most one every 10 s
 * with the count held back: a page retrying in a loop cannot flood the log.
 */
export function refusalReporter(write: (line: string) => void, now: () => number = Date.now) {
  let quietUntil = 0;
  let held = 0;
  return (request: RefusedRequest): void => {
    const at = now();
    if (at < quietUntil) {
      held += 1;
      return;
    }
    const more = held > 0 ? ` (and ${held} more since the last report)` : '';
    held = 0;
    quietUntil = at + 10_000;
    const from = request.origin !== undefined ? `Origin ${request.origin}` : `Host ${request.host ?? ''}`;
    write(`refused a ${request.transport} request from ${from}${more}`);
  };
}
