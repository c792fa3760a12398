// PREIMAGE-SHA-256 crypto-conditions as rippled reads them (src/xrpld/conditions): a condition is
// the DER encoding [0]{ fingerprint [0] OCTET STRING(32), cost [1] INTEGER } and a fulfillment
// [0]{ preimage [0] OCTET STRING }. rippled implements only this type; the other four of the RFC
// (prefix, threshold, RSA, Ed25519) are refused, and so is anything over its size limits. The
// decoder is hand-written: the npm crypto-conditions libraries (five-bells-condition) accept the
// other types and larger sizes, which would let through escrows rippled refuses.
import { createHash } from 'node:crypto';

/** rippled Condition::maxSerializedCondition and Fulfillment::maxSerializedFulfillment. */
const MAX_SERIALIZED_CONDITION = 128;
const MAX_SERIALIZED_FULFILLMENT = 256;
/** rippled PreimageSha256::maxPreimageLength. */
const MAX_PREIMAGE_LENGTH = 128;
const FINGERPRINT_SIZE = 32;

export interface Condition {
  /** Always 0 (preimageSha256): the only type rippled supports. */
  readonly type: 0;
  readonly cost: number;
  readonly fingerprint: Buffer;
}

interface Preamble {
  constructed: boolean;
  contextSpecific: boolean;
  tag: number;
  length: number;
}

/** A cursor over DER bytes; every read returns undefined where rippled's decoder sets an error. */
class Der {
  pos = 0;
  constructor(
    readonly bytes: Buffer,
    readonly end: number = bytes.length,
  ) {}

  get remaining(): number {
    return this.end - this.pos;
  }

  /** rippled der::parsePreamble: short tags only, lengths in short or long form (never 0 long). */
  preamble(): Preamble | undefined {
    if (this.remaining < 2) return undefined;
    const first = this.bytes[this.pos] as number;
    const tag = first & 0x1f;
    this.pos += 1;
    if (tag === 0x1f) return undefined;
    let length = this.bytes[this.pos] as number;
    this.pos += 1;
    if (length & 0x80) {
      const count = length & 0x7f;
      if (count === 0 || count > 8 || count > this.remaining) return undefined;
      length = 0;
      for (let i = 0; i < count; i += 1) length = length * 256 + (this.bytes[this.pos + i] as number);
      this.pos += count;
      if (length === 0) return undefined;
    }
    return {
      constructed: (first & 0x20) !== 0,
      contextSpecific: (first & 0xc0) === 0x80,
      tag,
      length,
    };
  }

  octets(count: number): Buffer | undefined {
    if (count > this.remaining || count > 65535) return undefined;
    const out = this.bytes.subarray(this.pos, this.pos + count);
    this.pos += count;
    return out;
  }

  /** rippled der::parseInteger<std::uint32_t>: at most 5 octets, the fifth only as a zero pad. */
  uint32(count: number): number | undefined {
    if (this.remaining === 0 || count > this.remaining || count > 5) return undefined;
    const first = this.bytes[this.pos] as number;
    if (first & 0x80) return undefined;
    if (count === 5 && first !== 0) return undefined;
    let value = 0;
    for (let i = 0; i < count; i += 1) value = value * 256 + (this.bytes[this.pos + i] as number);
    this.pos += count;
    return value;
  }
}

function hexBytes(hex: string): Buffer | undefined {
  if (hex.length % 2 !== 0 || !/^[0-9A-Fa-f]*$/.test(hex)) return undefined;
  return Buffer.from(hex, 'hex');
}

/** rippled Condition::deserialize; undefined when rippled would refuse it. */
export function parseCondition(hex: string): Condition | undefined {
  const bytes = hexBytes(hex);
  if (!bytes || bytes.length === 0) return undefined;
  const der = new Der(bytes);
  const outer = der.preamble();
  if (!outer || !outer.constructed || !outer.contextSpecific) return undefined;
  if (outer.length > der.remaining) return undefined;
  if (der.remaining > MAX_SERIALIZED_CONDITION) return undefined;
  if (outer.tag !== 0) return undefined;
  const body = new Der(bytes, der.pos + outer.length);
  body.pos = der.pos;
  const fp = body.preamble();
  if (!fp || fp.constructed || !fp.contextSpecific || fp.tag !== 0) return undefined;
  if (fp.length !== FINGERPRINT_SIZE) return undefined;
  const fingerprint = body.octets(fp.length);
  if (!fingerprint) return undefined;
  const c = body.preamble();
  if (!c || c.constructed || !c.contextSpecific || c.tag !== 1) return undefined;
  const cost = body.uint32(c.length);
  if (cost === undefined || body.remaining !== 0) return undefined;
  if (cost > MAX_PREIMAGE_LENGTH) return undefined;
  if (der.pos + outer.length !== bytes.length) return undefined;
  return { type: 0, cost, fingerprint: Buffer.from(fingerprint) };
}

/** rippled Fulfillment::deserialize (PreimageSha256): the preimage, or undefined. */
export function parseFulfillment(hex: string): Buffer | undefined {
  const bytes = hexBytes(hex);
  if (!bytes || bytes.length === 0) return undefined;
  const der = new Der(bytes);
  const outer = der.preamble();
  if (!outer || !outer.constructed || !outer.contextSpecific) return undefined;
  if (outer.length !== der.remaining || outer.length > MAX_SERIALIZED_FULFILLMENT) return undefined;
  if (outer.tag !== 0) return undefined;
  const inner = der.preamble();
  if (!inner || inner.constructed || !inner.contextSpecific || inner.tag !== 0) return undefined;
  if (der.remaining !== inner.length || der.remaining > MAX_PREIMAGE_LENGTH) return undefined;
  const preimage = der.octets(inner.length);
  return preimage ? Buffer.from(preimage) : undefined;
}

/** rippled's checkCondition: both decode, and the fulfillment's derived condition is the condition. */
export function fulfillmentMatches(fulfillmentHex: string, conditionHex: string): boolean {
  const condition = parseCondition(conditionHex);
  if (!condition) return false;
  const preimage = parseFulfillment(fulfillmentHex);
  if (!preimage) return false;
  if (condition.cost !== preimage.length) return false;
  return createHash('sha256').update(preimage).digest().equals(condition.fingerprint);
}
