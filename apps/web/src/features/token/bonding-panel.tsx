import { useEffect, useState } from 'react';
import { formatCount, formatFull, formatMoney, formatPrice, type BondingView } from '@ledgerpad/shared';

// The curve of a curve launch (docs/bonding-curve.md): progress to graduation (share of the
// 793,100,000 curve tokens sold, raised of the target), the next token's price and the price the
// AMM pool will open at; after graduation, the pool it went into and its locked LP tokens.

const grouped = (value: string) => formatCount(value);

/** m:ss of a count of seconds. */
const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/**
 * An instant launch's anti-sniper window (docs/launch-protection.md): the pre-pool ladder, with the
 * time left before the pool opens — the server's figure (ledger time), counted down here between reads.
 */
function WindowPanel({ curve }: { curve: BondingView }) {
  const q = curve.quote;
  const [left, setLeft] = useState(curve.pool_opens_in_seconds ?? 0);
  useEffect(() => {
    setLeft(curve.pool_opens_in_seconds ?? 0);
    const t = setInterval(() => setLeft((s) => Math.max(0, s - 1)), 1000);
    return () => clearInterval(t);
  }, [curve.pool_opens_in_seconds]);
  const open = curve.status === 'graduated';
  return (
    <section className="panel bonding-panel" aria-labelledby="bonding-title" data-testid="bonding-panel">
      <div className="bonding-head">
        <h2 id="bonding-title" className="panel-title">
          {open ? 'The pool is open' : 'Anti-sniper window'}
        </h2>
        {!open && (
          <span className="bonding-percent" data-testid="pool-opens-in">
            {curve.status === 'graduating' || left === 0 ? 'Pool opening…' : `Pool opens in ${clock(left)}`}
          </span>
        )}
      </div>
      {open ? (
        <p className="bonding-note">
          The window is over: the pool opened with the creator&apos;s liquidity, everything the window raised
          and every token it did not sell. Its LP tokens are burned.
          {curve.amm_account && (
            <>
              {' '}
              Pool account <code className="bonding-address">{curve.amm_account}</code>.
            </>
          )}
        </p>
      ) : (
        <>
          <dl className="bonding-facts">
            <div>
              <dt>Sold in the window</dt>
              <dd>
                {grouped(curve.sold)} / {grouped(curve.curve_supply)}
              </dd>
            </div>
            <div>
              <dt>Price now (before the anti-sniper fee)</dt>
              <dd className="figure" title={`${formatFull(curve.price)} ${q}`}>
                {formatPrice(curve.price)} {q}
              </dd>
            </div>
          </dl>
          <p className="muted bonding-note">
            Until the pool opens the token sells only on this ladder, priced along the pool&apos;s own curve,
            and every buy — here or straight on the ledger — pays the anti-sniper fee on top. Then the pool
            opens with everything the window raised and the tokens not sold, and its LP tokens are burned.
          </p>
        </>
      )}
    </section>
  );
}

export function BondingPanel({
  curve,
  loading,
  failed,
  currentLedger,
}: {
  curve: BondingView | undefined;
  loading: boolean;
  failed: boolean;
  /** The ledger the page last saw (the anti-snipe note is shown until its window ends). */
  currentLedger?: number;
}) {
  if (loading) {
    return (
      <section className="panel bonding-panel" aria-busy="true" aria-label="Bonding curve">
        <p className="muted">Loading the curve…</p>
      </section>
    );
  }
  if (failed || !curve) {
    return (
      <section className="panel bonding-panel" aria-label="Bonding curve">
        <p className="muted">The curve could not be loaded.</p>
      </section>
    );
  }
  if (curve.kind === 'window') return <WindowPanel curve={curve} />;
  const q = curve.quote;
  const graduated = curve.status === 'graduated';
  const percent = Number(curve.percent);
  const snipe =
    !graduated &&
    curve.snipe_until_ledger !== null &&
    (currentLedger === undefined || currentLedger < curve.snipe_until_ledger);
  return (
    <section className="panel bonding-panel" aria-labelledby="bonding-title" data-testid="bonding-panel">
      <div className="bonding-head">
        <h2 id="bonding-title" className="panel-title">
          {graduated ? 'Graduated to the AMM pool' : 'Bonding curve'}
        </h2>
        <span className={`bonding-percent${graduated ? ' done' : ''}`} data-testid="bonding-percent">
          {curve.percent}%
        </span>
      </div>
      <div
        className={`bonding-bar${graduated ? ' done' : ''}`}
        role="progressbar"
        aria-label="Progress to graduation"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${curve.percent}% of the curve sold`}
      >
        <span style={{ width: `${Math.min(100, Math.max(0, percent))}%` }} />
      </div>
      {graduated ? (
        <p className="bonding-note">
          Every curve token sold: the {q} it raised and the reserved tokens now make the token&apos;s AMM
          pool, opened at the curve&apos;s final price. Its LP tokens are locked forever.
          {curve.amm_account && (
            <>
              {' '}
              Pool account <code className="bonding-address">{curve.amm_account}</code>.
            </>
          )}
        </p>
      ) : (
        <dl className="bonding-facts">
          <div>
            <dt>Raised</dt>
            <dd data-testid="bonding-raised">
              <span className="figure" title={`${formatFull(curve.raised)} ${q}`}>
                {formatMoney(curve.raised, q)}
              </span>{' '}
              / <span className="figure">{formatMoney(curve.target, q)}</span> {q}
            </dd>
          </div>
          <div>
            <dt>Sold on the curve</dt>
            <dd>
              {grouped(curve.sold)} / {grouped(curve.curve_supply)}
            </dd>
          </div>
          <div>
            <dt>Price now</dt>
            <dd className="figure" title={`${formatFull(curve.price)} ${q}`}>
              {formatPrice(curve.price)} {q}
            </dd>
          </div>
          <div>
            <dt>Pool opens at</dt>
            <dd className="figure" title={`${formatFull(curve.end_price)} ${q}`}>
              {formatPrice(curve.end_price)} {q}
            </dd>
          </div>
        </dl>
      )}
      {!graduated && (
        <p className="muted bonding-note">
          {curve.status === 'graduating'
            ? 'Sold out: the curve is moving into its AMM pool.'
            : `When the curve sells out, what it raised goes into an AMM pool at the final price and the LP tokens are locked.`}
        </p>
      )}
      {snipe && (
        <p className="bonding-note bonding-snipe" role="note">
          Anti-snipe: until ledger {formatCount(curve.snipe_until_ledger!)} at most{' '}
          {grouped(curve.snipe_tokens)} tokens are for sale per ledger.
        </p>
      )}
    </section>
  );
}
