import { formatMoney, type SwapResult } from '@ledgerpad/shared';
import { walletLabel } from '../../../lib/wallet-balances';
import type { WalletOutcome } from '../api';
import { batchSummary } from '../batch';

// A multi-wallet trade's result (issue 25 "batch results name wallets"): the spec's summary line,
// then each wallet by name with what it got or why it failed. Styled by the worst outcome.

export function TradeResults({
  kind,
  side,
  token,
  outcomes,
  assetName,
}: {
  kind: 'market' | 'limit';
  side: 'BUY' | 'SELL';
  /** The traded token's code. */
  token: string;
  outcomes: WalletOutcome[];
  assetName: (asset: string) => string;
}) {
  const ok = outcomes.filter((o) => o.ok).length;
  const failed = outcomes.length - ok;
  return (
    <div className="trade-results" data-testid="trade-results">
      <p className="trade-results-summary">{batchSummary(kind, ok, failed)}</p>
      <ul className="trade-results-list" aria-label="Each wallet's result">
        {outcomes.map((o) => (
          <li key={o.wallet.wallet_address} className={o.ok ? 'ok' : 'bad'}>
            <span className="trade-results-wallet" title={o.wallet.wallet_address}>
              {walletLabel(o.wallet)}
            </span>
            {': '}
            {o.ok ? (o.swap ? swapLine(o.swap, side, token, assetName) : 'order placed') : o.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

function swapLine(
  s: SwapResult,
  side: 'BUY' | 'SELL',
  token: string,
  assetName: (asset: string) => string,
): string {
  const [paid, got] = side === 'BUY' ? [s.quote, token] : [token, s.quote];
  const partial = s.status === 'partial' ? ' (partly filled)' : '';
  return `spent ${formatMoney(s.spent, paid)} ${assetName(paid)}, received ${formatMoney(s.received, got)} ${assetName(got)}${partial}`;
}
