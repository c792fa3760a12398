import { useEffect, useState } from 'react';
import { formatFull, formatMoney, type AntiSniperQuote } from '@ledgerpad/shared';

// The anti-sniper line of a buy on a curve launch in its window (issue 37, docs/launch-protection.md):
// the surcharge the curve's prices carry now and when the window ends, counted down from the quote's
// answer. The fee is inside what the buy pays (the quote's 'You pay'), not charged again.

const clock = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

export function AntiSniperLine({
  a,
  asset,
  assetName,
  at,
}: {
  a: AntiSniperQuote;
  /** The quote asset's code ('XRP', or RLUSD's). */
  asset: string;
  assetName: (asset: string) => string;
  /** When the quote arrived (ms): the countdown runs from there. */
  at: number;
}) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, a.endsInSeconds - Math.floor((now - at) / 1000));
  return (
    <dl className="disclosure" aria-label="Anti-sniper fee">
      <div className="disclosure-row sub">
        <dt>
          Anti-sniper fee {a.percent}% ({left > 0 ? `ends in ${clock(left)}` : 'ending'})
        </dt>
        <dd data-testid="anti-sniper-fee">
          <span className="figure" title={`${formatFull(a.fee)} ${assetName(asset)}`}>
            {formatMoney(a.fee, asset)} {assetName(asset)}
          </span>{' '}
          <span className="muted">in the curve’s price, included above</span>
        </dd>
      </div>
    </dl>
  );
}
