import { balanceChanges, type TxBalanceChanges } from '../../platform/indexer/balance-changes';
import { canTrade, consumedOffers } from '../../platform/indexer/consumed-offers';
import type { IndexedTx } from '../../platform/indexer/follower';
import { Decimal } from '@ledgerpad/shared';

// Trades from one transaction's metadata. A trade is what the liquidity side gave and got: the
// AMM account of a token's pool and the owners of the token's offers this transaction consumed.
// Balance changes are read, not Offer nodes alone, because an AMM swap touches no Offer node. An
// auto-bridged token→token payment moves each token against XRP once, so each token gets exactly
// one trade from it. Deposits and withdrawals change pools too, but they are not trades: only
// Payment, OfferCreate and CheckCash can trade.

export type Quote = 'XRP' | 'RLUSD';

export interface MarketIndex {
  /** `${currency}|${issuer}` → token id, for listed tokens. */
  tokenByKey: Map<string, number>;
  /** Token id → its `${currency}|${issuer}` (the inverse of `tokenByKey`). */
  tokenKeyById: Map<number, string>;
  /** AMM account → its pool's token and quote. */
  poolByAccount: Map<string, { tokenId: number; quote: Quote }>;
  /** The RLUSD issuer on this network (undefined when there is none). */
  rlusd?: { currency: string; issuer: string };
}

export interface ExtractedTrade {
  tokenId: number;
  quote: Quote;
  side: 'BUY' | 'SELL';
  account: string;
  hash: string;
  txIndex: number;
  tokenAmount: string;
  quoteAmount: string;
  price: string;
}

/**
 * One account's balance changes in the transaction per asset key (XRP, or `currency|issuer`), summed;
 * an issuer's own currency is keyed by the issuer (from its side the counterparty is the holder).
 */
function changesOf(changes: TxBalanceChanges, account: string, index: MarketIndex): Map<string, Decimal> {
  const mine = new Map<string, Decimal>();
  for (const b of changes.of(account)) {
    let key: string;
    if (b.currency === 'XRP') key = 'XRP';
    else if (index.tokenByKey.has(`${b.currency}|${account}`)) key = `${b.currency}|${account}`;
    else key = `${b.currency}|${b.issuer}`;
    const before = mine.get(key);
    mine.set(key, before ? before.plus(b.value) : b.value);
  }
  return mine;
}

export function extractTrades(itx: IndexedTx, index: MarketIndex): ExtractedTrade[] {
  const { meta, tx } = itx;
  if (!canTrade(itx)) return [];
  const quoteKeys: Record<Quote, string | undefined> = {
    XRP: 'XRP',
    RLUSD: index.rlusd ? `${index.rlusd.currency}|${index.rlusd.issuer}` : undefined,
  };
  const quoteOf = (key: string): Quote | undefined =>
    key === quoteKeys.XRP ? 'XRP' : key === quoteKeys.RLUSD ? 'RLUSD' : undefined;

  // Liquidity accounts per (token, quote).
  const liquidity = new Map<
    string,
    { tokenId: number; quote: Quote; tokenKey: string; accounts: Set<string> }
  >();
  const addLiquidity = (tokenKey: string, quote: Quote, account: string) => {
    const tokenId = index.tokenByKey.get(tokenKey);
    if (tokenId === undefined || account === tx.Account) return;
    const k = `${tokenId}:${quote}`;
    const entry = liquidity.get(k) ?? { tokenId, quote, tokenKey, accounts: new Set<string>() };
    entry.accounts.add(account);
    liquidity.set(k, entry);
  };

  for (const { account, gets, pays } of consumedOffers(itx)) {
    for (const [token, quote] of [
      [gets, pays],
      [pays, gets],
    ] as const) {
      const q = quoteOf(quote);
      if (q && index.tokenByKey.has(token)) addLiquidity(token, q, account);
    }
  }

  // Pools whose balances changed. Only the liquidity side's changes are computed (parsing every
  // balance of every node was most of the indexer's time).
  const changes = balanceChanges(meta);
  for (const account of changes.accounts) {
    const pool = index.poolByAccount.get(account);
    if (!pool) continue;
    const key = index.tokenKeyById.get(pool.tokenId);
    if (key !== undefined) addLiquidity(key, pool.quote, account);
  }
  const byAccount = new Map<string, Map<string, Decimal>>();

  const trades: ExtractedTrade[] = [];
  for (const l of liquidity.values()) {
    const quoteKey = quoteKeys[l.quote]!;
    let dToken = new Decimal(0);
    let dQuote = new Decimal(0);
    for (const a of l.accounts) {
      let c = byAccount.get(a);
      if (!c) byAccount.set(a, (c = changesOf(changes, a, index)));
      dToken = dToken.plus(c.get(l.tokenKey) ?? 0);
      dQuote = dQuote.plus(c.get(quoteKey) ?? 0);
    }
    let side: 'BUY' | 'SELL';
    if (dToken.isNeg() && dQuote.gt(0)) side = 'BUY';
    else if (dToken.gt(0) && dQuote.isNeg()) side = 'SELL';
    else continue;
    const tokenAmount = dToken.abs();
    const quoteAmount = dQuote.abs();
    trades.push({
      tokenId: l.tokenId,
      quote: l.quote,
      side,
      account: tx.Account,
      hash: itx.hash,
      txIndex: meta.TransactionIndex,
      tokenAmount: tokenAmount.toFixed(),
      quoteAmount: quoteAmount.toFixed(),
      price: quoteAmount.div(tokenAmount).toSignificantDigits(16).toFixed(),
    });
  }
  return trades;
}
