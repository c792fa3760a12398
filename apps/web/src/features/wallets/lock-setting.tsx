import { useId } from 'react';
import { VAULT_LOCK_MINUTES_CHOICES } from '@ledgerpad/shared';
import { lockAll, lockMinutes, setLockMinutes } from '../../lib/signer/lock';
import { useLockState } from './key-status';

/** How long browser wallets stay unlocked without activity, and a Lock-all button. */
export function LockSetting() {
  useLockState();
  const id = useId();
  return (
    <div className="lock-row">
      <label htmlFor={id} className="muted">
        Lock browser wallets after
      </label>
      <select
        id={id}
        className="input"
        value={lockMinutes()}
        onChange={(e) => setLockMinutes(Number(e.target.value))}
      >
        {VAULT_LOCK_MINUTES_CHOICES.map((m) => (
          <option key={m} value={m}>
            {m} min without activity
          </option>
        ))}
      </select>
      <button type="button" className="link-button" onClick={lockAll}>
        Lock all now
      </button>
    </div>
  );
}
