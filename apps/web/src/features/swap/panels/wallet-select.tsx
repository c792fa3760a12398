import { formatXrp, type WalletBalance } from '@ledgerpad/shared';
import { walletLabel } from '../../../lib/wallet-balances';
import { availableXrp } from '../../../lib/wallet-funds';

/** The wallet to trade from: its name (never an internal id), short address and available XRP. */
export function WalletSelect({
  wallets,
  loading,
  failed,
  value,
  onChange,
}: {
  wallets: WalletBalance[];
  loading: boolean;
  failed: boolean;
  value: string | undefined;
  onChange: (address: string) => void;
}) {
  if (loading) return <p className="muted">Loading wallets…</p>;
  if (failed) return <p className="form-error">Failed to load wallets.</p>;
  if (wallets.length === 0)
    return <p className="muted">Create a wallet on the Wallets page to start trading.</p>;
  return (
    <div className="field">
      <label className="field-label" htmlFor="swap-wallet">
        Wallet
      </label>
      <select id="swap-wallet" className="input" value={value} onChange={(e) => onChange(e.target.value)}>
        {wallets.map((w) => (
          <option key={w.wallet_address} value={w.wallet_address}>
            {walletLabel(w)} · {formatXrp(w.balance)} XRP
          </option>
        ))}
      </select>
    </div>
  );
}

/** Multi-wallet mode: tick the wallets to trade from; randomized buys for market buys only. */
export function MultiWallet({
  wallets,
  multi,
  onMulti,
  ticked,
  onTick,
  randomAllowed,
  randomized,
  onRandomized,
}: {
  wallets: WalletBalance[];
  multi: boolean;
  onMulti: (on: boolean) => void;
  ticked: readonly string[];
  onTick: (address: string, on: boolean) => void;
  randomAllowed: boolean;
  randomized: boolean;
  onRandomized: (on: boolean) => void;
}) {
  return (
    <div className="multi-wallet">
      <label className="check">
        <input type="checkbox" checked={multi} onChange={(e) => onMulti(e.target.checked)} /> Multi-wallet
        mode
      </label>
      {multi && (
        <>
          <ul className="wallet-ticks" aria-label="Wallets to trade from">
            {wallets.map((w) => (
              <li key={w.wallet_address}>
                <label className="check">
                  <input
                    type="checkbox"
                    checked={ticked.includes(w.wallet_address)}
                    onChange={(e) => onTick(w.wallet_address, e.target.checked)}
                  />{' '}
                  <span className="wallet-tick-name">{walletLabel(w)}</span>{' '}
                  <span className="muted figure">{formatXrp(availableXrp(w))} XRP</span>
                </label>
              </li>
            ))}
          </ul>
          {randomAllowed && (
            <label className="check">
              <input type="checkbox" checked={randomized} onChange={(e) => onRandomized(e.target.checked)} />{' '}
              Randomized buys
            </label>
          )}
        </>
      )}
    </div>
  );
}
