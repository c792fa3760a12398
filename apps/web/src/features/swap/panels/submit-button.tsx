import type { TradeDisclosure } from '@ledgerpad/shared';
import type { Readiness } from '../readiness';

// The swap box's button: disabled with the reason as its words until the order can be sent
// ('Enter an amount', 'Insufficient XRP balance', …); above 15% price impact a click opens a
// confirmation step naming the impact (trade-box.tsx, a ConfirmDialog a double click can't satisfy);
// above 50% it stays disabled until 'I understand' is ticked.

export function SubmitButton({
  readiness,
  label,
  busyLabel,
  busy,
  tone,
  disclosure,
  accepted,
  onAccept,
}: {
  readiness: Readiness;
  /** 'Buy', 'Sell', 'Place Buy Order', 'Swap'… */
  label: string;
  busyLabel: string;
  busy: boolean;
  tone: 'buy' | 'sell';
  disclosure: TradeDisclosure | null;
  accepted: boolean;
  onAccept: (on: boolean) => void;
}) {
  const level = disclosure?.level ?? 'ok';
  const impact = disclosure?.priceImpactPercent;
  const words = busy ? busyLabel : !readiness.sendable ? readiness.reason : label;
  return (
    <div className="submit-block">
      {level === 'warn' && (
        <p className="impact-warning warn" role="note">
          Price impact {impact}%: this trade moves the price noticeably.
        </p>
      )}
      {level === 'confirm' && (
        <p className="impact-warning confirm" role="alert">
          {`High price impact: ${impact}%. You will be asked to confirm.`}
        </p>
      )}
      {level === 'block' && (
        <label className="impact-warning block check">
          <input type="checkbox" checked={accepted} onChange={(e) => onAccept(e.target.checked)} /> I
          understand: this trade moves the price by {impact}% and I may get far less than it is worth.
        </label>
      )}
      <button
        type="submit"
        className={`swap-submit ${tone}${level === 'confirm' || level === 'block' ? ' danger' : ''}`}
        disabled={busy || !readiness.sendable}
        aria-describedby={!readiness.sendable && readiness.detail ? 'swap-submit-detail' : undefined}
      >
        {words}
      </button>
      {!busy && !readiness.sendable && readiness.detail && (
        <p id="swap-submit-detail" className="muted small submit-detail" data-testid="submit-detail">
          {readiness.detail}
        </p>
      )}
    </div>
  );
}
