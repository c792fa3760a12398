import { decodeSeed } from 'xrpl';
import { mnemonicWords, SECRET_FIELDS } from '@ledgerpad/shared';

// Wallet secrets (family seeds, private keys, mnemonics) live only in the sealed custody store
// (platform/custody.ts). Everything else the server writes — stored idempotent answers, log lines —
// passes through here first: fields named as secrets lose their values, and any family seed found
// in a text is replaced, whatever field or message carried it (docs/key-custody.md "Never written").

const SECRET_KEYS: ReadonlySet<string> = new Set(SECRET_FIELDS);
const REDACTED = '[redacted]';

/** Maximal base58 runs as long as a family seed (29 characters; Ed25519 seeds `sEd…` 31). */
const SEED_RUN = /[1-9A-HJ-NP-Za-km-z]{25,40}/g;

/** A family seed (`s…`, secp256k1 or Ed25519) with a valid checksum. */
export function isFamilySeed(text: string): boolean {
  if (text[0] !== 's') return false;
  try {
    decodeSeed(text);
    return true;
  } catch {
    return false;
  }
}

/** `text` with every family seed in it replaced. */
export function redactSeeds(text: string): string {
  if (!text.includes('s')) return text;
  return text.replace(SEED_RUN, (run) => (isFamilySeed(run) ? REDACTED : run));
}

export function isSecretField(name: string): boolean {
  return SECRET_KEYS.has(name);
}

/**
 * The secret values a request body carries (an import's seed, mnemonic or private key), in the forms
 * the server may have normalized them to: an answer or an error that echoes one is scrubbed of it.
 */
export function secretsOf(body: unknown): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, depth: number) => {
    if (depth > 8 || v === null || typeof v !== 'object') return;
    for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
      if (typeof child === 'string' && isSecretField(k)) {
        const trimmed = child.trim();
        const words = mnemonicWords(trimmed).join(' ');
        for (const form of [trimmed, words, words.toLowerCase(), words.toUpperCase()])
          if (form.length >= 8) out.add(form);
      } else walk(child, depth + 1);
    }
  };
  walk(body, 0);
  return [...out];
}

export interface Scrubbed<T> {
  value: T;
  /** Names of the secret fields that were dropped (e.g. `wallet_seed`). */
  removed: string[];
  /** Whether anything changed (a field dropped or a value redacted). */
  changed: boolean;
}

/**
 * A copy of `value` without secrets: secret-named fields are dropped, and strings lose every
 * family seed and every one of `known` (the request's own secrets) they contain.
 */
export function withoutSecrets<T>(value: T, known: readonly string[] = []): Scrubbed<T> {
  const removed = new Set<string>();
  let changed = false;
  const text = (s: string) => {
    let out = redactSeeds(s);
    for (const k of known) if (out.includes(k)) out = out.split(k).join(REDACTED);
    if (out !== s) changed = true;
    return out;
  };
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return text(v);
    if (v === null || typeof v !== 'object' || depth > 32) return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
      if (isSecretField(k)) {
        removed.add(k);
        changed = true;
        continue;
      }
      out[k] = walk(child, depth + 1);
    }
    return out;
  };
  const result = walk(value, 0) as T;
  return { value: result, removed: [...removed], changed };
}

/** `"seed":"…"` (any secret field name, JSON-escaped value) → `"seed":"[redacted]"`. */
const JSON_SECRET_PAIR = new RegExp(`"(${SECRET_FIELDS.join('|')})"(\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'g');

/**
 * One serialized log line (pino's JSON, before any pretty printing) without secrets: secret-named
 * fields' values and family seeds anywhere in it are redacted. The last net under the serializers.
 */
export function scrubLogLine(line: string): string {
  return redactSeeds(line.replace(JSON_SECRET_PAIR, `"$1"$2"${REDACTED}"`));
}
