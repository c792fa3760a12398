import type { LpPositionResult } from '@ledgerpad/shared';
import { Decimal, formatMoney } from '@ledgerpad/shared';
import { useLpPosition } from './api';

// "Your position" under the Liquidity tab (docs/liquidity.md, "LP position"): the wallet's share of
// the pool, what it is worth, and how it did against simply holding what it deposited — the fees the
// pool earned it and the impermanent loss — read from its own transactions on the ledger.

/** Amounts the user checks against the ledger: to the drop for XRP, 15 digits for tokens. */
const exactAmount = (v: string, asset: string) => formatMoney(v, asset);
const signed = (v: string, asset: string) => {
  const d = new Decimal(v);
  return `${d.gt(0) ? '+' : d.lt(0) ? '−' : ''}${exactAmount(d.abs().toFixed(), asset)}`;
};
const tone = (v: string) => (new Decimal(v).gt(0) ? 'positive' : new Decimal(v).lt(0) ? 'negative' : '');
const KIND: Record<LpPositionResult['history'][number]['kind'], string> = {
  create: 'Pool created',
  deposit: 'Deposit',
  withdraw: 'Withdrawal',
  transfer: 'LP transfer',
  bid: 'Auction slot',
};

export function LpPosition({
  wallet,
  token,
  base,
  lpBalance,
}: {
  wallet: string | undefined;
  token: { issuer: string; code: string; ticker: string } | null;
  base: 'XRP' | 'RLUSD';
  lpBalance: string;
}) {
  const holds = new Decimal(lpBalance || '0').gt(0);
  const position = useLpPosition(wallet, token, base, lpBalance, holds);
  if (!wallet || !token) return null;
  return (
    <section className="lp-position" aria-labelledby="lp-position-title" data-testid="lp-position">
      <h3 id="lp-position-title" className="lp-position-title">
        Your position
      </h3>
      {!holds ? (
        <p className="muted">This wallet holds no LP tokens of this pool.</p>
      ) : position.isPending ? (
        <p className="muted" aria-busy="true">
          Reading the position from the ledger…
        </p>
      ) : position.isError ? (
        <p className="muted">The position could not be read.</p>
      ) : (
        <PositionFigures p={position.data} ticker={token.ticker} />
      )}
    </section>
  );
}

function PositionFigures({ p, ticker }: { p: LpPositionResult; ticker: string }) {
  const q = p.quote;
  return (
    <>
      <dl className="lp-figures">
        <div>
          <dt>Share of the pool</dt>
          <dd data-testid="lp-share">{p.share}%</dd>
        </div>
        <div>
          <dt>Now worth</dt>
          <dd data-testid="lp-value">
            {exactAmount(p.current.value, q)} {q}
          </dd>
        </div>
        <div>
          <dt>In the pool</dt>
          <dd>
            {exactAmount(p.current.base, q)} {q} + {exactAmount(p.current.token, ticker)} {ticker}
          </dd>
        </div>
        <div>
          <dt>Holding instead</dt>
          <dd>
            {exactAmount(p.holdValue, q)} {q}
          </dd>
        </div>
        <div>
          <dt>Fees earned</dt>
          <dd className={tone(p.feesEarned)}>
            {signed(p.feesEarned, q)} {q}
          </dd>
        </div>
        <div>
          <dt>Impermanent loss</dt>
          <dd className={tone(p.impermanentLoss)}>
            {signed(p.impermanentLoss, q)} {q}
          </dd>
        </div>
        <div>
          <dt>P&amp;L vs holding</dt>
          <dd className={tone(p.pnl)} data-testid="lp-pnl">
            {signed(p.pnl, q)} {q}
          </dd>
        </div>
      </dl>
      {p.history.length > 0 && (
        <details className="lp-history">
          <summary>History ({p.history.length})</summary>
          <ul>
            {p.history.map((h) => (
              <li key={`${h.hash}-${h.lp}`}>
                <span className="lp-event-head">
                  <strong>{KIND[h.kind]}</strong>
                  <span className="muted">
                    {h.time ? new Date(h.time).toLocaleString() : `ledger ${h.ledgerIndex}`}
                  </span>
                </span>
                <span className="lp-event-amounts">
                  {signed(h.lp, 'LP')} LP
                  {h.kind !== 'transfer' && h.kind !== 'bid' && (
                    <>
                      {' '}
                      ({signed(h.base, q)} {q}, {signed(h.token, ticker)} {ticker})
                    </>
                  )}
                </span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}
