import type { ReactNode } from 'react';
import {
  formatFull,
  formatMoney,
  formatPrice,
  Decimal,
  type TradeDisclosure,
  type WalletBalance,
} from '@ledgerpad/shared';
import { walletLabel } from '../../../lib/wallet-balances';

// Everything a market trade costs and gives, before the click (issue 25): you pay (amount + platform
// fee + network fees + the reserve a new trust line locks), you receive, the minimum at the chosen
// slippage, the rate both ways, the price impact, and the platform fee on its own line — on a
// bonding curve too, where it is inside the curve's price. Money at full precision (XRP to the drop,
// tokens to 15 digits); rates in the list's 4 significant digits with the full figure on hover.

function Row({
  label,
  children,
  testId,
  strong,
  sub,
  tone,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
  strong?: boolean;
  sub?: boolean;
  tone?: string;
}) {
  return (
    <div className={`disclosure-row${sub ? ' sub' : ''}${strong ? ' strong' : ''}${tone ? ` ${tone}` : ''}`}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

const positive = (v: string) => new Decimal(v).gt(0);

export function Disclosure({
  d,
  assetName,
  slippage,
  wallets = 1,
}: {
  d: TradeDisclosure;
  /** 'XRP', 'RLUSD' or the token's ticker for an asset code. */
  assetName: (asset: string) => string;
  slippage: string;
  /** Multi-wallet: every ticked wallet places this same order. */
  wallets?: number;
}) {
  const money = (value: string, asset: string) => (
    <span className="figure" title={`${formatFull(value)} ${assetName(asset)}`}>
      {formatMoney(value, asset)} {assetName(asset)}
    </span>
  );
  const token = d.side === 'BUY' ? d.receiveAsset : d.payAsset;
  const quote = d.feeAsset;
  const join = (parts: ReactNode[]) =>
    parts.flatMap((p, i) => (i === 0 ? [p] : [<span key={`plus-${i}`}> + </span>, p]));
  const onCurve = positive(d.feeInPrice);
  const charged = positive(d.platformFee) || !onCurve;
  return (
    <dl className="disclosure" data-testid="disclosure" aria-label="What this trade costs and gives">
      {wallets > 1 && (
        <p className="muted small disclosure-note">Each of the {wallets} wallets places this order.</p>
      )}
      <Row label="You pay" testId="you-pay" strong>
        {join(d.youPay.map((p) => <span key={p.asset}>{money(p.amount, p.asset)}</span>))}
      </Row>
      <Row label="Amount" sub testId="pay-amount">
        {money(d.amount, d.payAsset)}
      </Row>
      {charged && (
        <Row label={`Platform fee${d.feePercent ? ` (${d.feePercent}%)` : ''}`} sub testId="platform-fee">
          {money(d.platformFee, d.feeAsset)}
          {d.side === 'SELL' && <span className="muted"> from what you receive</span>}
        </Row>
      )}
      {onCurve && (
        <Row
          label={`Platform fee${d.curveFeePercent ? ` (${d.curveFeePercent}%)` : ''}, in the curve's price`}
          sub
          testId="curve-fee"
        >
          {money(d.feeInPrice, d.feeAsset)} <span className="muted">included above, not charged again</span>
        </Row>
      )}
      <Row label="Network fees" sub testId="network-fee">
        {money(d.networkFee, 'XRP')}
      </Row>
      {positive(d.reserve) && (
        <Row label="Reserve locked" testId="reserve">
          {money(d.reserve, 'XRP')}{' '}
          <span className="muted">for the new trust line: locked while the wallet holds it, not spent</span>
        </Row>
      )}
      <Row label="You receive (estimate)" strong testId="you-receive">
        ≈ {money(d.receive, d.receiveAsset)}
      </Row>
      {d.side === 'SELL' && (charged || d.receiveAsset === 'XRP') && (
        <Row
          label={`After the ${[charged ? 'platform fee' : '', d.receiveAsset === 'XRP' ? 'network fees' : ''].filter(Boolean).join(' and ')}`}
          sub
          testId="receive-after-fee"
        >
          ≈ {money(d.receiveNet, d.receiveAsset)}
        </Row>
      )}
      {d.minimumNet === d.minimumReceived ? (
        <Row label={`Minimum received (${slippage}% slippage)`} testId="minimum-received">
          {money(d.minimumReceived, d.receiveAsset)}
        </Row>
      ) : (
        <>
          <Row label={`Minimum received after fees (${slippage}% slippage)`} testId="minimum-received">
            {money(d.minimumNet, d.receiveAsset)}
          </Row>
          <Row label="The trade's floor, before fees" sub testId="minimum-floor">
            {money(d.minimumReceived, d.receiveAsset)}
          </Row>
        </>
      )}
      {d.side === 'BUY' && (
        <p className="muted small disclosure-note" data-testid="net-note">
          Net figures: the fees are paid on top, in what you pay, not out of what you receive.
        </p>
      )}
      <Row label="Rate" testId="rate">
        <span title={`${formatFull(d.price)} ${assetName(quote)}`}>
          1 {assetName(token)} = {formatPrice(d.price)} {assetName(quote)}
        </span>
        <br />
        <span title={`${formatFull(d.inversePrice)} ${assetName(token)}`}>
          1 {assetName(quote)} = {formatPrice(d.inversePrice)} {assetName(token)}
        </span>
      </Row>
      <Row label="Price impact" testId="price-impact" tone={`impact-${d.level}`}>
        {d.priceImpactPercent === null ? '—' : `${d.priceImpactPercent}%`}
        {d.priceImpactPercent !== null && d.impactAgainst && d.impactAgainst !== 'pool' && (
          <span className="muted small" data-testid="impact-against">
            {' '}
            against the {d.impactAgainst === 'curve' ? "curve's next price" : "book's best offer"}
          </span>
        )}
      </Row>
      {d.partial && (
        <p className="form-error disclosure-note" role="note">
          Only part of this amount would fill at any price right now.
        </p>
      )}
    </dl>
  );
}

/** One wallet of a multi-wallet market order, as the batch quote gave it. */
export interface BatchRow {
  wallet: WalletBalance | undefined;
  address: string;
  amount: string;
  disclosure: TradeDisclosure | null;
  error: string | null;
}

/**
 * A multi-wallet or randomized market order, wallet by wallet before the click (issue 39): each
 * wallet's own amount, platform fee, network fees, the trust line it opens (its reserve locked, not
 * spent), what it receives after the wallets before it, and its minimum — the floor its trade signs.
 */
export function BatchDisclosure({
  rows,
  assetName,
  slippage,
}: {
  rows: BatchRow[];
  assetName: (asset: string) => string;
  slippage: string;
}) {
  const money = (value: string, asset: string) => (
    <span className="figure" title={`${formatFull(value)} ${assetName(asset)}`}>
      {formatMoney(value, asset)} {assetName(asset)}
    </span>
  );
  return (
    <div className="batch-disclosure" data-testid="batch-disclosure">
      <p className="muted small disclosure-note">
        The {rows.length} wallets trade one after another; each one&apos;s estimate is after the ones before
        it. Minimum received at {slippage}% slippage is the floor each trade signs.
      </p>
      <ol className="batch-wallets">
        {rows.map((r) => {
          const d = r.disclosure;
          return (
            <li key={r.address} data-testid="batch-wallet">
              <strong>{r.wallet ? walletLabel(r.wallet) : r.address}</strong>
              {r.error || !d ? (
                <p className="form-error">{r.error ?? 'No estimate.'}</p>
              ) : (
                <dl className="disclosure">
                  <Row label="Amount" sub testId="batch-amount">
                    {money(d.amount, d.payAsset)}
                  </Row>
                  {new Decimal(d.platformFee).gt(0) && (
                    <Row
                      label={`Platform fee${d.feePercent ? ` (${d.feePercent}%)` : ''}`}
                      sub
                      testId="batch-fee"
                    >
                      {money(d.platformFee, d.feeAsset)}
                      {d.side === 'SELL' && <span className="muted"> from what it receives</span>}
                    </Row>
                  )}
                  <Row label="Network fees" sub testId="batch-network-fee">
                    {money(d.networkFee, 'XRP')}
                  </Row>
                  {d.opensTrustLine && (
                    <Row label="New trust line" sub testId="batch-trust-line">
                      reserve {money(d.reserve, 'XRP')} <span className="muted">locked, not spent</span>
                    </Row>
                  )}
                  <Row label="Receives (estimate)" testId="batch-receive">
                    ≈ {money(d.receive, d.receiveAsset)}
                  </Row>
                  <Row label="Minimum received" testId="batch-minimum">
                    {money(d.minimumReceived, d.receiveAsset)}
                  </Row>
                  <Row label="Price impact" testId="batch-impact" tone={`impact-${d.level}`}>
                    {d.priceImpactPercent === null ? '—' : `${d.priceImpactPercent}%`}
                  </Row>
                </dl>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
