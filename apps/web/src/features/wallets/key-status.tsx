import { useEffect, useState, useSyncExternalStore } from 'react';
import { WALLET_APP_NAMES, type WalletSummary } from '@ledgerpad/shared';
import { isUnlocked, lock, requestUnlock, snapshot, subscribe } from '../../lib/signer/lock';
import { heldHere } from './self-custody';

/** Re-renders when a browser wallet locks or unlocks. */
export function useLockState(): number {
  return useSyncExternalStore(subscribe, snapshot);
}

/**
 * Who signs for a self-custody wallet, on its card: a browser wallet's lock (Unlock / Lock, and
 * whether this browser holds its key at all), or the wallet app that signs.
 */
export function KeyStatus({ wallet, onExport }: { wallet: WalletSummary; onExport: () => void }) {
  useLockState();
  const [held, setHeld] = useState<boolean | undefined>(undefined);
  const address = wallet.wallet_address;
  useEffect(() => {
    if (wallet.kind !== 'browser') return;
    let live = true;
    void heldHere(address).then((h) => live && setHeld(h));
    return () => {
      live = false;
    };
  }, [address, wallet.kind]);

  if (wallet.kind === 'external')
    return (
      <p className="custody-note">
        Signs in {wallet.wallet_app ? WALLET_APP_NAMES[wallet.wallet_app] : 'its wallet app'}: the server
        cannot sign for it.
      </p>
    );
  if (wallet.kind !== 'browser') return null;
  if (held === false)
    return (
      <p className="custody-note" data-testid="key-elsewhere">
        Its key is not in this browser: import its seed here (Only in this browser) to sign with it.
      </p>
    );
  const unlocked = isUnlocked(address);
  return (
    <div className="lock-row" data-testid="key-status">
      <span className="muted">{unlocked ? 'Unlocked in this browser' : 'Locked'}</span>
      {unlocked ? (
        <button type="button" className="link-button" onClick={() => lock(address)}>
          Lock
        </button>
      ) : (
        <button
          type="button"
          className="link-button"
          onClick={() =>
            void requestUnlock(address, wallet.wallet_name ?? 'Browser wallet').catch(() => undefined)
          }
        >
          Unlock
        </button>
      )}
      <button type="button" className="link-button" onClick={onExport}>
        Export key
      </button>
    </div>
  );
}
