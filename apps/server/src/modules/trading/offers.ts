import { rippleTimeToUnixTime, type TransactionMetadata } from 'xrpl';
import { Decimal, amountValue, type LedgerAmount, type OrderStatus } from '@ledgerpad/shared';

// What one validated transaction did to offers, read from its metadata alone (pure): the rows of
// `trading_orders` follow from these, whichever path saw the transaction first — the limit-order
// route, a cancel, the order indexer or the reconciliation — so they all agree.

export type { OrderStatus };
type Amount = LedgerAmount;

export interface OfferChange {
  owner: string;
  sequence: number;
  status: OrderStatus;
  side: 'BUY' | 'SELL';
  tokenCurrency: string;
  tokenIssuer: string;
  /** 'XRP', or the quote IOU's currency code (RLUSD's hex code). */
  quoteCurrency: string;
  quoteIssuer: string | null;
  /** As placed (the creating OfferCreate's amounts when this transaction created it, else the offer's latest known). */
  placedQuote: string;
  placedTokens: string;
  remainingTokens: string;
  /** What this transaction took from the offer (crossings only): the quote and token sides. */
  filledQuote: string;
  filledTokens: string;
  /** Unix milliseconds, when the offer has an Expiration. */
  expiresAt: number | null;
}

const value = (a: Amount): Decimal => amountValue(a);
const currencyOf = (a: Amount) => (typeof a === 'string' ? 'XRP' : a.currency);
const issuerOf = (a: Amount) => (typeof a === 'string' ? null : a.issuer);
const plain = (d: Decimal) => d.toSignificantDigits(15, Decimal.ROUND_DOWN).toFixed();

/**
 * Which side of `gets`/`pays` (the owner's TakerGets: what the owner pays) is the token: XRP is
 * always the quote; between two IOUs the quote is `quoteIou` (RLUSD). Null for other pairs.
 */
function orient(
  gets: Amount,
  pays: Amount,
  quoteIou: string | undefined,
): { side: 'BUY' | 'SELL'; token: Amount; quote: Amount } | null {
  const isQuote = (a: Amount) =>
    typeof a === 'string' || (quoteIou !== undefined && `${a.currency}.${a.issuer}` === quoteIou);
  // XRP/RLUSD: RLUSD is the "token" bought or sold for XRP (as in the swap screen).
  if (typeof gets === 'string' && typeof pays !== 'string') return { side: 'BUY', token: pays, quote: gets };
  if (typeof pays === 'string' && typeof gets !== 'string') return { side: 'SELL', token: gets, quote: pays };
  if (isQuote(gets) && !isQuote(pays)) return { side: 'BUY', token: pays, quote: gets };
  if (isQuote(pays) && !isQuote(gets)) return { side: 'SELL', token: gets, quote: pays };
  return null;
}

/** An offer's pair, side and amounts as placed, in the order's terms. */
function placed(o: { side: 'BUY' | 'SELL'; token: Amount; quote: Amount }) {
  return {
    side: o.side,
    tokenCurrency: currencyOf(o.token),
    tokenIssuer: issuerOf(o.token) ?? '',
    quoteCurrency: currencyOf(o.quote),
    quoteIssuer: issuerOf(o.quote),
    placedQuote: plain(value(o.quote)),
    placedTokens: plain(value(o.token)),
  };
}

interface OfferFields {
  Account: string;
  Sequence: number;
  TakerGets: Amount;
  TakerPays: Amount;
  Expiration?: number;
}

/**
 * The offers a transaction created, crossed, cancelled or removed, for owners `isOwn` accepts.
 * `quoteIou` is `currency.issuer` of the IOU quote (RLUSD) when there is one.
 */
export function offerChanges(
  tx: Record<string, unknown> & { TransactionType: string; Account: string },
  meta: TransactionMetadata,
  isOwn: (account: string) => boolean,
  quoteIou?: string,
): OfferChange[] {
  const out: OfferChange[] = [];
  if (typeof meta !== 'object' || !meta || !Array.isArray(meta.AffectedNodes)) return out;
  const cancelled = (owner: string, seq: number) =>
    tx.Account === owner &&
    (tx.TransactionType === 'OfferCancel' || tx.TransactionType === 'OfferCreate') &&
    tx.OfferSequence === seq;
  for (const node of meta.AffectedNodes) {
    const [kind, body] = Object.entries(node)[0] as [
      'CreatedNode' | 'ModifiedNode' | 'DeletedNode',
      {
        LedgerEntryType: string;
        NewFields?: OfferFields;
        FinalFields?: OfferFields;
        PreviousFields?: Partial<OfferFields>;
      },
    ];
    if (body.LedgerEntryType !== 'Offer') continue;
    const fields = (kind === 'CreatedNode' ? body.NewFields : body.FinalFields) as OfferFields | undefined;
    if (!fields || !isOwn(fields.Account)) continue;
    // The offer's amounts before this transaction touched it (for a created one: as submitted).
    const createdHere =
      kind === 'CreatedNode' && tx.TransactionType === 'OfferCreate' && tx.Account === fields.Account;
    const before = {
      gets: (createdHere ? (tx.TakerGets as Amount) : (body.PreviousFields?.TakerGets ?? fields.TakerGets))!,
      pays: (createdHere ? (tx.TakerPays as Amount) : (body.PreviousFields?.TakerPays ?? fields.TakerPays))!,
    };
    const o = orient(before.gets, before.pays, quoteIou);
    const now = orient(fields.TakerGets, fields.TakerPays, quoteIou);
    if (!o) continue;
    let status: OrderStatus;
    let remaining: Decimal;
    const remainingNow = now ? value(now.token) : new Decimal(0);
    if (kind === 'DeletedNode') {
      // Consumed by this transaction (its amounts changed) → filled; cancelled by its owner, or
      // removed untouched (expired, unfunded) → canceled.
      const crossed =
        body.PreviousFields?.TakerGets !== undefined ||
        body.PreviousFields?.TakerPays !== undefined ||
        value(fields.TakerGets).isZero() ||
        value(fields.TakerPays).isZero();
      status = !cancelled(fields.Account, fields.Sequence) && crossed ? 'filled' : 'canceled';
      remaining = status === 'filled' ? new Decimal(0) : remainingNow;
    } else {
      remaining = remainingNow;
      status = remaining.lt(value(o.token)) ? 'partially_filled' : 'open';
      // A modified offer was crossed before; it stays partially filled.
      if (kind === 'ModifiedNode') status = 'partially_filled';
    }
    // Taken in this transaction: the amounts before it less what is left (not for a new offer,
    // whose own crossing is the placing transaction's trade).
    let filledQuote = new Decimal(0);
    let filledTokens = new Decimal(0);
    if (kind !== 'CreatedNode' && body.PreviousFields?.TakerGets !== undefined && now) {
      filledQuote = Decimal.max(value(o.quote).minus(value(now.quote)), 0);
      filledTokens = Decimal.max(value(o.token).minus(value(now.token)), 0);
    }
    out.push({
      owner: fields.Account,
      sequence: fields.Sequence,
      status,
      filledQuote: plain(filledQuote),
      filledTokens: plain(filledTokens),
      ...placed(o),
      remainingTokens: plain(remaining),
      expiresAt: fields.Expiration ? rippleTimeToUnixTime(fields.Expiration) : null,
    });
  }
  return out;
}

/** The offer a wallet's OfferCreate placed, when it left nothing resting: wholly filled at once, or killed. */
export function unrestedOffer(
  tx: Record<string, unknown> & { TransactionType: string; Account: string; Sequence?: number },
  meta: TransactionMetadata,
  quoteIou?: string,
): OfferChange | null {
  if (tx.TransactionType !== 'OfferCreate' || typeof meta !== 'object') return null;
  const o = orient(tx.TakerGets as Amount, tx.TakerPays as Amount, quoteIou);
  if (!o || meta.TransactionResult !== 'tesSUCCESS') return null;
  const rests = meta.AffectedNodes.some((n) => {
    const c = (n as { CreatedNode?: { LedgerEntryType: string } }).CreatedNode;
    return c?.LedgerEntryType === 'Offer';
  });
  if (rests) return null;
  return {
    owner: tx.Account,
    sequence: Number(tx.Sequence ?? tx.TicketSequence),
    status: 'filled',
    ...placed(o),
    remainingTokens: '0',
    filledQuote: '0',
    filledTokens: '0',
    expiresAt: null,
  };
}
