import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { LIQUIDITY_MESSAGES, formatToken, shortAddress, type AmmBidResult, Decimal } from '@ledgerpad/shared';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { apiPost, userMessage } from '../../lib/api';
import { useLedgerAction } from '../../lib/ledger-action';
import { useAuctionSlot } from './api';
import { liquidityKeys } from './keys';

// The pool's auction slot (XLS-30 AMMBid): whoever holds it trades in this pool at a tenth of the
// fee for 24 hours. Its price — in LP tokens, burned — is shown first; the bid pays at most that.

export function AuctionSlot({
  wallet,
  token,
  base,
  lpBalance,
  onStatus,
}: {
  wallet: string | undefined;
  token: { issuer: string; code: string; ticker: string } | null;
  base: 'XRP' | 'RLUSD';
  lpBalance: string;
  onStatus: (text: string) => void;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const slot = useAuctionSlot(token, base);
  const bid = useLedgerAction((maxPrice: string, key) =>
    apiPost<AmmBidResult>(
      '/api/amm-bid',
      { wallet, issuer: token!.issuer, token: token!.code, baseAsset: base, maxPrice },
      { idempotencyKey: key() },
    ),
  );
  const placeBid = async (maxPrice: string) => {
    try {
      if (!(await bid.run(maxPrice))) return;
      onStatus(LIQUIDITY_MESSAGES.bidSuccess);
      void queryClient.invalidateQueries({ queryKey: liquidityKeys.all() });
    } catch (err) {
      onStatus(`❌ ${LIQUIDITY_MESSAGES.bidFailed}: ${userMessage(err, 'Unknown error')}`);
      void queryClient.invalidateQueries({ queryKey: liquidityKeys.auctions() });
    } finally {
      setConfirming(false);
    }
  };
  if (!token) return null;
  const s = slot.data;
  const mine = s?.holder !== null && s?.holder === wallet;
  const affordable = s ? new Decimal(lpBalance || '0').gte(s.price) : false;
  return (
    <section className="auction-slot" aria-labelledby="auction-title" data-testid="auction-slot">
      <h3 id="auction-title" className="lp-position-title">
        Auction slot
      </h3>
      {slot.isPending ? (
        <p className="muted" aria-busy="true">
          Reading the slot…
        </p>
      ) : slot.isError || !s ? (
        <p className="muted">The auction slot could not be read.</p>
      ) : (
        <>
          <p className="muted liquidity-note">
            The holder trades in this pool at {new Decimal(s.discountedFee).div(1000).toFixed()}% instead of{' '}
            {new Decimal(s.tradingFee).div(1000).toFixed()}% for 24 hours. The bid is paid in LP tokens, which
            are burned (every LP&apos;s share grows); an outbid holder gets back the unused part.
          </p>
          <dl className="lp-figures">
            <div>
              <dt>Holder</dt>
              <dd data-testid="slot-holder">
                {s.holder ? (mine ? 'You' : shortAddress(s.holder)) : 'Nobody'}
              </dd>
            </div>
            <div>
              <dt>Until</dt>
              <dd>{s.expiresAt ? new Date(s.expiresAt).toLocaleString() : '—'}</dd>
            </div>
            <div>
              <dt>Price to bid now</dt>
              <dd data-testid="slot-price">{formatToken(s.price)} LP</dd>
            </div>
          </dl>
          <button
            type="button"
            className="swap-submit liquidity-submit"
            disabled={!wallet || mine || !affordable || bid.busy}
            onClick={() => setConfirming(true)}
          >
            {bid.busy ? 'Bidding…' : mine ? 'You hold the slot' : 'Bid for the slot'}
          </button>
          {!mine && !affordable && <p className="muted liquidity-note">{LIQUIDITY_MESSAGES.bidTooLow}</p>}
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title="Bid for the auction slot"
            confirmLabel="Bid"
            busyLabel="Bidding…"
            busy={bid.busy}
            onConfirm={() => void placeBid(s.price)}
          >
            <p>
              Pay at most{' '}
              <strong>
                {formatToken(s.price)} LP-{token.ticker}
              </strong>{' '}
              for 24 hours at the discounted fee. The LP tokens are burned.
            </p>
          </ConfirmDialog>
        </>
      )}
    </section>
  );
}
