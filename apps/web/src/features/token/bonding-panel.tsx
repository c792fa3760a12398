import { formatCount, formatFull, formatMoney, formatPrice, type BondingView } from '@ledgerpad/shared';

// The curve of a curve launch (docs/bonding-curve.md): progress to graduation (share of the
// 793,100,000 curve tokens sold, raised of the target), the next token's price and the price the
// AMM pool will open at; after graduation, the pool it went into and its locked LP tokens.

const grouped = (value: string) => formatCount(value);

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
