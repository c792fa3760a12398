import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  SWAP_MESSAGES,
  TRUSTLINE_MESSAGES,
  slippageSchema,
  type AddTrustlineResult,
  type AmmAuctionView,
  type LimitOrderResult,
  type LpBalanceResult,
  type LpPositionResult,
  type LpPriceResult,
  type QuoteAsset,
  type QuoteView,
  type SlippagePreference,
  type SwapBatchQuote,
  type SwapResult,
  type TokenStatsView,
  type TokenSuggestion,
  type WalletBalance,
} from '@ledgerpad/shared';
import { ApiError, apiGet, apiPost, apiPut, isFinalAnswer, userMessage } from '../../lib/api';
import { runSigned } from '../../lib/signer';
import { useLedgerAction } from '../../lib/ledger-action';
import { useSession } from '../../lib/session';
import { walletKeys } from '../../lib/query-keys';
import { useRlusd } from '../../lib/token-identities';
import { liquidityKeys, swapKeys } from './keys';

// The swap screen's calls, as hooks: token search (debounced by the caller), the estimate (the
// server simulates the very trade on the ledger), the token's market figures, the saved slippage,
// and the two ledger-writing actions — trades (one wallet or several) and trust lines — each with
// one Idempotency-Key per wallet per user action.

export type { TokenSuggestion };

export function useTokenSearch(query: string) {
  return useQuery({
    queryKey: swapKeys.search(query),
    queryFn: ({ signal }) =>
      apiGet<TokenSuggestion[]>(`/api/swapsearch/search-tokens/${encodeURIComponent(query)}`, {
        signal,
        credentials: false,
      }),
    enabled: query.length > 0,
    staleTime: 30_000,
  });
}

export interface QuoteInput {
  wallet: string;
  issuer: string;
  token: string;
  side: 'BUY' | 'SELL';
  amount: string;
  baseAsset?: QuoteAsset;
}

export function useQuote(input: QuoteInput | null) {
  return useQuery({
    queryKey: swapKeys.quote(input),
    queryFn: ({ signal }) =>
      apiPost<QuoteView>(
        '/api/amm-info',
        {
          issuer: input!.issuer,
          token: input!.token,
          tradeType: input!.side,
          wallet: input!.wallet,
          ...(input!.baseAsset ? { baseAsset: input!.baseAsset } : {}),
          ...(input!.side === 'BUY' ? { amountXrp: input!.amount } : { amountToken: input!.amount }),
        },
        { signal },
      ),
    enabled: input !== null,
    retry: false,
    // The market moves with every ledger: an estimate older than a few seconds is asked again.
    refetchInterval: 5_000,
  });
}

export interface BatchQuoteInput {
  issuer: string;
  token: string;
  side: 'BUY' | 'SELL';
  slippage: string;
  baseAsset?: QuoteAsset;
  orders: Array<{ walletAddress: string; amount: string }>;
}

/** Multi-wallet market orders: each wallet's own quote, after the wallets before it (issue 39). */
export function useBatchQuote(input: BatchQuoteInput | null) {
  return useQuery({
    queryKey: swapKeys.batchQuote(input),
    queryFn: ({ signal }) =>
      apiPost<SwapBatchQuote>(
        '/api/swap/batch/quote',
        {
          issuer: input!.issuer,
          token: input!.token,
          type: input!.side,
          slippage: input!.slippage,
          ...(input!.baseAsset ? { baseAsset: input!.baseAsset } : {}),
          orders: input!.orders,
        },
        { signal },
      ),
    enabled: input !== null,
    retry: false,
    refetchInterval: 5_000,
  });
}

export function useMarketStats(issuer: string | null, currency: string | null) {
  return useQuery({
    queryKey: swapKeys.stats(issuer, currency),
    queryFn: ({ signal }) =>
      apiGet<TokenStatsView>(`/api/tokens/${issuer}/stats?currency=${currency}`, {
        signal,
        credentials: false,
      }),
    enabled: Boolean(issuer && currency),
    retry: false,
    refetchInterval: 10_000,
  });
}

/** The network's RLUSD (XRP ⇄ RLUSD mode): the one query lib shares with the token identities. */
export { useRlusd };

/**
 * The user's saved market slippage (0.50 when none; a failed read keeps 0.50, spec 001 §8), and
 * `save` for what they typed (on blur, when it is valid and different).
 */
export function useSlippagePreference() {
  const queryClient = useQueryClient();
  const session = useSession();
  const prefId = session.status === 'signed-in' ? String(session.user.telegram_id ?? session.user.id) : null;
  const key = swapKeys.slippage(prefId);
  const saved = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => apiGet<SlippagePreference>(`/api/user/slippage/${prefId}`, { signal }),
    enabled: prefId !== null,
    retry: false,
    staleTime: Infinity,
  });
  const save = (slippage: string) => {
    if (!slippageSchema.safeParse(slippage).success || slippage === saved.data?.slippage) return;
    void apiPut<SlippagePreference>('/api/user/slippage', { slippage })
      .then((answer) => queryClient.setQueryData(key, answer))
      .catch(() => undefined);
  };
  return { saved: saved.data?.slippage, save };
}

/** One wallet's order of a trade (a single-wallet trade has one). */
export interface WalletOrder {
  wallet: WalletBalance;
  amount: string;
  /** The estimate the user saw for this wallet: the ledger refuses less than it minus the slippage. */
  expected?: string;
}

export interface TradeRequest {
  kind: 'market' | 'limit';
  side: 'BUY' | 'SELL';
  issuer: string;
  token: string;
  baseAsset?: QuoteAsset;
  slippage: string;
  price?: string;
  orders: WalletOrder[];
  /**
   * One after another, in this order (issue 39): each wallet's `expected` is the batch quote's,
   * after the wallets before it, so each request goes once the one before it has its answer.
   */
  sequential?: boolean;
}

/** What happened to one wallet's order. */
export type WalletOutcome =
  | { wallet: WalletBalance; ok: true; swap?: SwapResult; order?: LimitOrderResult }
  | { wallet: WalletBalance; ok: false; message: string; unknown: boolean };

/**
 * Trades: one request per wallet, sent together, each with its own Idempotency-Key (the same on a
 * retry of the same action, so a wallet whose order went through is answered from the server's
 * record instead of trading twice). Outcomes name each wallet.
 */
export function useTradeAction() {
  const queryClient = useQueryClient();
  return useLedgerAction(
    async (req: TradeRequest, key): Promise<WalletOutcome[]> => {
      const fallback = req.kind === 'limit' ? SWAP_MESSAGES.limitFailed : SWAP_MESSAGES.swapRetry;
      const one = async (o: WalletOrder) => {
        const body = {
          walletAddress: o.wallet.wallet_address,
          issuer: req.issuer,
          token: req.token,
          amount: o.amount,
          type: req.side,
          ...(req.baseAsset ? { baseAsset: req.baseAsset } : {}),
        };
        const init = { idempotencyKey: key(o.wallet.wallet_address) };
        if (req.kind === 'limit')
          return {
            order: await apiPost<LimitOrderResult>('/api/limit-order', { ...body, price: req.price }, init),
          };
        // A self-custody wallet signs the prepared trade (and its fee) itself (lib/signer).
        return {
          swap: await runSigned<SwapResult>(
            o.wallet,
            () =>
              apiPost(
                '/api/swap',
                { ...body, slippage: req.slippage, ...(o.expected ? { expected: o.expected } : {}) },
                init,
              ),
            key(`signed:${o.wallet.wallet_address}`),
          ),
        };
      };
      const results: PromiseSettledResult<Awaited<ReturnType<typeof one>>>[] = [];
      if (req.sequential) {
        for (const o of req.orders)
          results.push(
            await one(o).then(
              (value) => ({ status: 'fulfilled' as const, value }),
              (reason: unknown) => ({ status: 'rejected' as const, reason }),
            ),
          );
      } else results.push(...(await Promise.allSettled(req.orders.map(one))));
      void queryClient.invalidateQueries({ queryKey: walletKeys.balances() });
      return results.map((r, i): WalletOutcome => {
        const wallet = req.orders[i]!.wallet;
        if (r.status === 'fulfilled') return { wallet, ok: true, ...r.value };
        return {
          wallet,
          ok: false,
          message: userMessage(r.reason, fallback),
          unknown: !isFinalAnswer(r.reason),
        };
      });
    },
    { unsettled: (outcomes) => outcomes.some((o) => !o.ok && o.unknown) },
  );
}

export interface TrustlineRequest {
  issuer: string;
  token: string;
  wallets: WalletBalance[];
}

export type TrustlineOutcome =
  | { wallet: WalletBalance; ok: true; existed: boolean }
  | { wallet: WalletBalance; ok: false; message: string; unknown: boolean };

/** 'Only Add Trustline' / 'Add Trustline for All Wallets': one call per wallet, in parallel (spec 001 §7). */
export function useTrustlineAction() {
  const queryClient = useQueryClient();
  return useLedgerAction(
    async (req: TrustlineRequest, key): Promise<TrustlineOutcome[]> => {
      const results = await Promise.allSettled(
        // A self-custody wallet signs its own TrustSet (lib/signer).
        req.wallets.map((w) =>
          runSigned<AddTrustlineResult>(
            w,
            () =>
              apiPost(
                '/api/add-trustline',
                { wallet: w.wallet_address, issuer: req.issuer, token: req.token },
                { idempotencyKey: key(w.wallet_address) },
              ),
            key(`signed:${w.wallet_address}`),
          ),
        ),
      );
      void queryClient.invalidateQueries({ queryKey: walletKeys.balances() });
      return results.map((r, i): TrustlineOutcome => {
        const wallet = req.wallets[i]!;
        if (r.status === 'fulfilled' && r.value.status === 'success')
          return { wallet, ok: true, existed: r.value.existed === true };
        if (r.status === 'fulfilled')
          return { wallet, ok: false, message: r.value.error ?? TRUSTLINE_MESSAGES.failed, unknown: false };
        return {
          wallet,
          ok: false,
          message: userMessage(r.reason, TRUSTLINE_MESSAGES.retry),
          unknown: !(r.reason instanceof ApiError) || !isFinalAnswer(r.reason),
        };
      });
    },
    { unsettled: (outcomes) => outcomes.some((o) => !o.ok && o.unknown) },
  );
}

/** A pool of the Liquidity tab: the token (ledger code) against its base. */
export interface PoolToken {
  issuer: string;
  code: string;
}
type PoolBase = 'XRP' | 'RLUSD';

/** The wallet's LP tokens of the pool (POST /api/lp-token-balance). */
export function useLpBalance(address: string | undefined, token: PoolToken | null, base: PoolBase) {
  const market = token && address ? { wallet: address, issuer: token.issuer, token: token.code } : null;
  return useQuery({
    queryKey: liquidityKeys.lpBalance(address, token?.issuer, token?.code, base),
    queryFn: ({ signal }) =>
      apiPost<LpBalanceResult>(
        '/api/lp-token-balance',
        { ...market!, baseCurrency: base, baseIssuer: '' },
        { signal },
      ),
    enabled: market !== null,
    retry: false,
  });
}

/**
 * The pool and what an LP amount or a deposit is worth in it (POST /api/get-lp-price), every 5 s.
 * Keyed by the (debounced) amounts; `body` is the request those amounts make.
 */
export function useLpPrice(input: {
  token: PoolToken | null;
  base: PoolBase;
  amountLp: string;
  deposit: { depositBase: string; depositToken: string };
  body: Record<string, string>;
  enabled: boolean;
}) {
  const { token, base, amountLp, deposit, body, enabled } = input;
  return useQuery({
    queryKey: liquidityKeys.lpPrice(token?.issuer, token?.code, base, amountLp, deposit),
    queryFn: ({ signal }) =>
      apiPost<LpPriceResult>(
        '/api/get-lp-price',
        { issuer: token!.issuer, token: token!.code, baseAsset: base, ...body },
        { signal },
      ),
    enabled: token !== null && enabled,
    retry: false,
    refetchInterval: 5_000,
    placeholderData: (prev) => prev,
  });
}

/** The pool's auction slot (XLS-30 AMMBid), every 30 s. */
export function useAuctionSlot(token: PoolToken | null, base: PoolBase) {
  return useQuery({
    queryKey: liquidityKeys.auction(token?.issuer, token?.code, base),
    queryFn: ({ signal }) =>
      apiPost<AmmAuctionView>(
        '/api/amm-auction',
        { issuer: token!.issuer, token: token!.code, baseAsset: base },
        { signal },
      ),
    enabled: token !== null,
    refetchInterval: 30_000,
  });
}

/** The wallet's position in the pool, read again whenever its LP balance changes. */
export function useLpPosition(
  wallet: string | undefined,
  token: PoolToken | null,
  base: PoolBase,
  lpBalance: string,
  holds: boolean,
) {
  return useQuery({
    queryKey: liquidityKeys.position(wallet, token?.issuer, token?.code, base, lpBalance),
    queryFn: ({ signal }) =>
      apiPost<LpPositionResult>(
        '/api/lp-position',
        { wallet, issuer: token!.issuer, token: token!.code, baseAsset: base },
        { signal },
      ),
    enabled: Boolean(wallet && token && holds),
  });
}
