import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { parse as parseToml } from 'smol-toml';
import { IDENTITY_MESSAGES, tickerToCurrency } from '@ledgerpad/shared';
import { badRequest } from '../../lib/errors';

// Proof of control through the issuer's own website (XRPL's xrp-ledger.toml standard): the
// issuer's `Domain` names a site whose /.well-known/xrp-ledger.toml lists the issuer under
// [[ISSUERS]] and the currency under [[CURRENCIES]]. The server fetches it itself, so the fetch is
// fenced like any server-side request to a user-chosen host: https only, a public unicast address
// (checked on the address actually connected to, so DNS rebinding gains nothing), a timeout, a
// size cap, at most a few redirects under the same rules. Tests serve the file from a local HTTP
// server: `allowLoopback` (config TOML_FETCH_ALLOW_LOOPBACK, accepted only under NODE_ENV=test)
// then allows http:// and loopback addresses, nothing else.

const TOML_PATH = '/.well-known/xrp-ledger.toml';
const TOML_MAX_BYTES = 256 * 1024;
const TOML_TIMEOUT_MS = 5_000;
const MAX_REDIRECTS = 3;

export interface TomlFetchOptions {
  allowLoopback: boolean;
  timeoutMs?: number;
  maxBytes?: number;
}

/** The Domain field (hex of ASCII) as a host name, or null when it is not one. */
export function domainOf(domainHex: string | undefined): string | null {
  if (!domainHex) return null;
  const text = Buffer.from(domainHex, 'hex').toString('utf8').trim().toLowerCase();
  // Some issuers write a URL; only the host counts (a scheme or path is dropped).
  const host = text.replace(/^https?:\/\//, '').replace(/\/.*$/, '');
  const HOST =
    /^(?=.{1,253}(?::\d{1,5})?$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?::\d{1,5})?$/;
  return HOST.test(host) ? host : null;
}

export function tomlUrl(domain: string, allowLoopback: boolean): string {
  return `${allowLoopback ? 'http' : 'https'}://${domain}${TOML_PATH}`;
}

/** Why an address may not be fetched from, or null when it may. */
function refusedAddress(address: string, allowLoopback: boolean): string | null {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && allowLoopback) return null;
  return `the site resolves to a ${range} address, which is not fetched`;
}

class FetchRefused extends Error {}

/** dns.lookup, then every resolved address checked before the socket connects to it. */
function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as LookupAddress[];
      for (const a of list) {
        const why = refusedAddress(a.address, allowLoopback);
        if (why) return callback(new FetchRefused(why), '', 0);
      }
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

function getOnce(
  url: URL,
  opts: Required<TomlFetchOptions>,
  deadline: number,
): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    if (!secure && !(url.protocol === 'http:' && opts.allowLoopback)) {
      return reject(new FetchRefused('only https:// is fetched'));
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      const why = refusedAddress(host, opts.allowLoopback);
      if (why) return reject(new FetchRefused(why));
    }
    const req = (secure ? https : http).request(url, {
      method: 'GET',
      headers: { accept: 'application/toml, text/plain, */*', 'user-agent': 'Ledgerpad-TOML-check' },
      lookup: guardedLookup(opts.allowLoopback),
      timeout: Math.max(1, deadline - Date.now()),
    });
    req.on('timeout', () => req.destroy(new FetchRefused('it did not answer in time')));
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
}

/** The TOML file's text, or an AppError (400) saying what went wrong with which URL. */
export async function fetchToml(startUrl: string, options: TomlFetchOptions): Promise<string> {
  const opts = {
    allowLoopback: options.allowLoopback,
    timeoutMs: options.timeoutMs ?? TOML_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? TOML_MAX_BYTES,
  };
  const deadline = Date.now() + opts.timeoutMs;
  const fail = (reason: string) => badRequest(IDENTITY_MESSAGES.tomlFetch(startUrl, reason));
  let url = new URL(startUrl);
  for (let hop = 0; ; hop++) {
    let res: http.IncomingMessage;
    try {
      res = await getOnce(url, opts, deadline);
    } catch (err) {
      if (err instanceof FetchRefused) throw fail(`${err.message}.`);
      throw fail('the site could not be reached.');
    }
    const status = res.statusCode ?? 0;
    if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
      res.resume();
      if (hop >= MAX_REDIRECTS) throw fail('too many redirects.');
      url = new URL(res.headers.location, url);
      continue;
    }
    if (status !== 200) {
      res.resume();
      throw fail(`the site answered HTTP ${status}.`);
    }
    return readCapped(res, opts.maxBytes, deadline).catch((err: unknown) => {
      throw fail(err instanceof FetchRefused ? `${err.message}.` : 'the download failed.');
    });
  }
}

function readCapped(res: http.IncomingMessage, maxBytes: number, deadline: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(res.headers['content-length'] ?? 0);
    if (declared > maxBytes) {
      res.destroy();
      return reject(new FetchRefused(`the file is larger than ${maxBytes / 1024} KB`));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(
      () => res.destroy(new FetchRefused('it did not answer in time')),
      Math.max(1, deadline - Date.now()),
    );
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        res.destroy(new FetchRefused(`the file is larger than ${maxBytes / 1024} KB`));
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    res.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    res.on('close', () => {
      clearTimeout(timer);
      if (!res.complete) reject(new FetchRefused('the download was cut off'));
    });
  });
}

/** The token's entry of [[CURRENCIES]] (and its issuer's of [[ISSUERS]]), as far as Ledgerpad reads them. */
export interface TomlCurrency {
  code: string;
  issuer: string;
  name?: unknown;
  desc?: unknown;
  /** `ledgerpad_claim` (TOML_CLAIM_FIELD): the claim text naming the user the domain makes controller. */
  [field: string]: unknown;
}

interface TomlShape {
  ISSUERS?: Array<{ address?: unknown; name?: unknown; desc?: unknown }>;
  CURRENCIES?: Array<Record<string, unknown>>;
}

const sameCode = (code: unknown, currency: string): boolean => {
  if (typeof code !== 'string' || code.trim() === '') return false;
  try {
    return tickerToCurrency(code.trim()).toUpperCase() === currency.toUpperCase();
  } catch {
    return false;
  }
};

/**
 * Checks a fetched xrp-ledger.toml: the issuer under [[ISSUERS]] and (currency, issuer) under
 * [[CURRENCIES]]. Throws the 400 naming what is missing; returns the currency's entry and the
 * issuer's (their names and descriptions are the listing's metadata when the TOML verifies it).
 */
export function checkToml(
  text: string,
  url: string,
  issuer: string,
  currency: string,
  ticker: string,
): { currency: TomlCurrency; issuer: { name?: unknown; desc?: unknown } } {
  let doc: TomlShape;
  try {
    doc = parseToml(text) as TomlShape;
  } catch {
    throw badRequest(IDENTITY_MESSAGES.tomlParse(url));
  }
  const issuers = Array.isArray(doc.ISSUERS) ? doc.ISSUERS : [];
  const issuerEntry = issuers.find((i) => i && i.address === issuer);
  if (!issuerEntry) throw badRequest(IDENTITY_MESSAGES.tomlNoIssuer(url));
  const currencies = Array.isArray(doc.CURRENCIES) ? doc.CURRENCIES : [];
  const entry = currencies.find((c) => c && c.issuer === issuer && sameCode(c.code, currency));
  if (!entry) throw badRequest(IDENTITY_MESSAGES.tomlNoCurrency(url, ticker));
  return { currency: entry as TomlCurrency, issuer: issuerEntry };
}
