// Signature helpers shared by the signature tests.

const N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');

/** The malleated (high-S) twin of a DER secp256k1 signature: valid maths, not fully canonical. */
export function highS(derHex: string): string {
  const sig = Buffer.from(derHex, 'hex');
  const rLen = sig[3] as number;
  const r = sig.subarray(4, 4 + rLen);
  const s = BigInt(`0x${sig.subarray(6 + rLen).toString('hex')}`);
  let hs = (N - s).toString(16);
  if (hs.length % 2) hs = `0${hs}`;
  let sb = Buffer.from(hs, 'hex');
  if ((sb[0] as number) & 0x80) sb = Buffer.concat([Buffer.from([0]), sb]);
  const body = Buffer.concat([Buffer.from([2, r.length]), r, Buffer.from([2, sb.length]), sb]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body])
    .toString('hex')
    .toUpperCase();
}
