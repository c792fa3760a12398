// The most XRP a signed transaction can take from its account: the funds check counts what is in
// flight as committed (docs/money.md).

const TX_CREATING_OBJECT = new Set([
  'TrustSet',
  'OfferCreate',
  'AMMDeposit',
  'AMMCreate',
  'CheckCreate',
  'EscrowCreate',
]);

const xrpDrops = (a: unknown): bigint => (typeof a === 'string' && /^\d+$/.test(a) ? BigInt(a) : 0n);

/** The most XRP one signed transaction can take from its account, in drops (see `inFlightXrp`). */
export function xrpOutflow(tx: Record<string, unknown>, reserveIncrement: bigint): bigint {
  let out = xrpDrops(tx.Fee);
  switch (tx.TransactionType) {
    case 'Payment':
      // A payment to oneself (a swap) spends at most SendMax; to others, SendMax or the amount.
      out +=
        tx.SendMax !== undefined
          ? xrpDrops(tx.SendMax)
          : tx.Destination === tx.Account
            ? 0n
            : xrpDrops(tx.Amount);
      break;
    case 'OfferCreate':
      out += xrpDrops(tx.TakerGets);
      break;
    case 'AMMDeposit':
    case 'AMMCreate':
      out += xrpDrops(tx.Amount) + xrpDrops(tx.Amount2);
      break;
    case 'CheckCreate':
    case 'EscrowCreate':
      out += xrpDrops(tx.SendMax) + xrpDrops(tx.Amount);
      break;
  }
  // A new object locks an owner reserve (a TrustSet to limit 0 removes one; counted anyway: it is
  // an upper bound).
  if (TX_CREATING_OBJECT.has(String(tx.TransactionType))) out += reserveIncrement;
  return out;
}
