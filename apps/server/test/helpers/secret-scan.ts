import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { decodeSeed, Wallet } from 'xrpl';

// The secret canary's scanner (issue 34): every byte the server wrote (a data directory, a database
// dump, log lines) searched for every wallet secret, in every encoding a secret could be written in —
// the family seed as text (base58), the seed's entropy and the private key as raw bytes, hex (both
// cases) and base64 (at each of the three alignments inside a longer base64 text, standard and URL
// alphabets), mnemonics as text, and every text form in UTF-8 and UTF-16 (both byte orders). A
// reusable helper: issue 38 extends the canary to browser-held wallets.

/** One wallet's secrets, in the forms the app knows them. */
export interface WalletSecret {
  /** Where it came from (an address, "imported by mnemonic", ...): for the report. */
  label: string;
  /** A family seed (`s…`). */
  seed?: string;
  /** A private key in xrpl.js's form (66 hex: `00…` secp256k1, `ED…` Ed25519) or 64 bare hex. */
  privateKey?: string;
  /** A mnemonic (BIP39 or RFC-1751 words). */
  mnemonic?: string;
}

export interface Needle {
  label: string;
  /** How the secret is encoded in these bytes (`seed utf-16le`, `private key base64 +1`, ...). */
  encoding: string;
  bytes: Buffer;
}

export interface Hit {
  label: string;
  encoding: string;
  /** The file (relative to the scanned directory) or the source name given to scanText/scanBuffer. */
  where: string;
  offset: number;
}

/** Base64 characters fully determined by `bytes` when they sit at offset 0, 1 or 2 of a longer text. */
function base64Cores(bytes: Buffer): Array<{ shift: number; text: string }> {
  const out: Array<{ shift: number; text: string }> = [];
  for (let k = 0; k < 3; k++) {
    const enc = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    // Output character j carries bits [6j, 6j+6): only those inside the secret's bits are its own.
    const start = Math.ceil((8 * k) / 6);
    const end = Math.floor((8 * (k + bytes.length)) / 6);
    out.push({ shift: k, text: enc.slice(start, end) });
  }
  return out;
}

/** Every encoding of a text secret (a seed, a mnemonic, a hex key as typed). */
function textForms(label: string, name: string, text: string): Needle[] {
  const utf8 = Buffer.from(text, 'utf8');
  const le = Buffer.from(text, 'utf16le');
  const be = Buffer.from(le).swap16();
  const forms: Needle[] = [
    { label, encoding: `${name} utf-8`, bytes: utf8 },
    { label, encoding: `${name} utf-16le`, bytes: le },
    { label, encoding: `${name} utf-16be`, bytes: be },
    { label, encoding: `${name} utf-8 as hex`, bytes: Buffer.from(utf8.toString('hex')) },
    { label, encoding: `${name} utf-8 as HEX`, bytes: Buffer.from(utf8.toString('hex').toUpperCase()) },
  ];
  for (const { shift, text: core } of base64Cores(utf8)) {
    forms.push({ label, encoding: `${name} base64 +${shift}`, bytes: Buffer.from(core) });
    const url = core.replaceAll('+', '-').replaceAll('/', '_');
    if (url !== core) forms.push({ label, encoding: `${name} base64url +${shift}`, bytes: Buffer.from(url) });
  }
  return forms;
}

/** Every encoding of raw secret bytes (a seed's entropy, a private key). */
function byteForms(label: string, name: string, raw: Buffer): Needle[] {
  const hex = raw.toString('hex');
  const forms: Needle[] = [
    { label, encoding: `${name} raw bytes`, bytes: raw },
    ...textForms(label, `${name} hex`, hex).filter((n) => !n.encoding.includes(' as ')),
    ...textForms(label, `${name} HEX`, hex.toUpperCase()).filter((n) => !n.encoding.includes(' as ')),
  ];
  for (const { shift, text: core } of base64Cores(raw)) {
    forms.push({ label, encoding: `${name} base64 +${shift}`, bytes: Buffer.from(core) });
    const url = core.replaceAll('+', '-').replaceAll('/', '_');
    if (url !== core) forms.push({ label, encoding: `${name} base64url +${shift}`, bytes: Buffer.from(url) });
  }
  return forms;
}

/** The 32 bytes of a private key given as xrpl.js writes it (or as bare hex). */
function privateKeyBytes(key: string): Buffer {
  const hex = key.length === 66 ? key.slice(2) : key;
  return Buffer.from(hex, 'hex');
}

/** Every needle of one wallet's secrets: its seed, the private key the seed derives, its mnemonic. */
export function needlesOf(secret: WalletSecret): Needle[] {
  const { label } = secret;
  const out: Needle[] = [];
  let privateKey = secret.privateKey;
  if (secret.seed) {
    out.push(...textForms(label, 'seed', secret.seed));
    out.push(...byteForms(label, 'seed entropy', Buffer.from(decodeSeed(secret.seed).bytes)));
    privateKey ??= Wallet.fromSeed(secret.seed).privateKey;
  }
  if (secret.mnemonic) out.push(...textForms(label, 'mnemonic', secret.mnemonic));
  if (privateKey) {
    // As typed or stored by xrpl.js (prefixed hex, both cases), and the key's own 32 bytes.
    out.push(...textForms(label, 'private key', privateKey.toUpperCase()));
    out.push(...textForms(label, 'private key', privateKey.toLowerCase()));
    out.push(...byteForms(label, 'private key', privateKeyBytes(privateKey)));
  }
  // Shorter than 12 bytes would find noise, not secrets; none of the forms above is.
  return dedupe(out.filter((n) => n.bytes.length >= 12));
}

function dedupe(needles: Needle[]): Needle[] {
  const seen = new Set<string>();
  return needles.filter((n) => {
    const k = `${n.label}\0${n.bytes.toString('hex')}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const KEY_BYTES = 3;

/**
 * Finds many needles in one pass: positions are filtered by their first three bytes (a 16M-entry
 * table), and only candidates are compared in full — about as fast as reading the bytes.
 */
export class SecretScanner {
  readonly needles: readonly Needle[];
  private readonly table = new Uint8Array(1 << 24);
  private readonly byKey = new Map<number, Needle[]>();
  /** Bytes scanned so far (for the report). */
  scannedBytes = 0;

  constructor(secrets: readonly WalletSecret[]) {
    this.needles = secrets.flatMap(needlesOf);
    for (const n of this.needles) {
      const k = (n.bytes[0]! << 16) | (n.bytes[1]! << 8) | n.bytes[2]!;
      this.table[k] = 1;
      const list = this.byKey.get(k);
      if (list) list.push(n);
      else this.byKey.set(k, [n]);
    }
  }

  scanBuffer(buf: Buffer, where: string): Hit[] {
    this.scannedBytes += buf.length;
    const hits: Hit[] = [];
    const last = buf.length - KEY_BYTES;
    const { table } = this;
    for (let i = 0; i <= last; i++) {
      const k = (buf[i]! << 16) | (buf[i + 1]! << 8) | buf[i + 2]!;
      if (table[k] === 0) continue;
      for (const n of this.byKey.get(k)!) {
        const len = n.bytes.length;
        if (i + len <= buf.length && buf.compare(n.bytes, 0, len, i, i + len) === 0)
          hits.push({ label: n.label, encoding: n.encoding, where, offset: i });
      }
    }
    return hits;
  }

  scanText(text: string, where: string): Hit[] {
    return this.scanBuffer(Buffer.from(text, 'utf8'), where);
  }

  /** Every regular file under `dir`, whatever it is (database pages, WAL segments, key files, logs). */
  scanDirectory(dir: string): Hit[] {
    const hits: Hit[] = [];
    const walk = (d: string) => {
      for (const name of readdirSync(d)) {
        const full = path.join(d, name);
        const st = statSync(full, { throwIfNoEntry: false });
        if (!st) continue; // removed while we walked (a WAL segment recycled)
        if (st.isDirectory()) walk(full);
        else if (st.isFile()) hits.push(...this.scanBuffer(readFileSync(full), path.relative(dir, full)));
      }
    };
    walk(dir);
    return hits;
  }
}

/** `label: encoding in where@offset`, one per line, for an assertion's message. */
export function describeHits(hits: readonly Hit[], max = 40): string {
  const lines = hits.slice(0, max).map((h) => `${h.label}: ${h.encoding} in ${h.where}@${h.offset}`);
  if (hits.length > max) lines.push(`… and ${hits.length - max} more`);
  return lines.join('\n');
}
