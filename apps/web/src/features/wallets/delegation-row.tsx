import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Decimal, serverSigns, type WalletSummary } from '@ledgerpad/shared';
import { apiDelete, apiPost, userMessage } from '../../lib/api';
import { newIdempotencyKey } from '../../lib/idempotency-key';
import { runSigned, SigningCancelledError } from '../../lib/signer';
import { useLedgerNetwork, useRefreshWallets } from './api';

// Delegated trading on a self-custody wallet's card (docs/self-custody.md "Delegated trading"): the
// state the ledger holds (the server reads its Delegate entry), Enable / Revoke — each one
// DelegateSet the wallet signs — and the platform fees its delegated trades owe, with Pay fees.

type Action = 'enable' | 'revoke' | 'pay';

const owedText = (owed: { xrp: string; rlusd: string }): string | undefined => {
  const parts = [
    ...(new Decimal(owed.xrp).gt(0) ? [`${owed.xrp} XRP`] : []),
    ...(new Decimal(owed.rlusd).gt(0) ? [`${owed.rlusd} RLUSD`] : []),
  ];
  return parts.length ? parts.join(' and ') : undefined;
};

export function DelegationRow({ wallet }: { wallet: WalletSummary }) {
  const refresh = useRefreshWallets();
  const network = useLedgerNetwork();
  const [error, setError] = useState<string | undefined>(undefined);
  const run = useMutation({
    mutationFn: async (action: Action) => {
      const key = newIdempotencyKey();
      const route =
        action === 'pay' ? `/api/wallets/${wallet.id}/owed-fees` : `/api/wallets/${wallet.id}/delegation`;
      return runSigned(
        wallet,
        () =>
          action === 'revoke'
            ? apiDelete(route, { idempotencyKey: key })
            : apiPost(route, undefined, { idempotencyKey: key }),
        `${key}.signed`,
        network,
      );
    },
    onMutate: () => setError(undefined),
    onError: (err) => {
      if (!(err instanceof SigningCancelledError))
        setError(userMessage(err, 'Delegation could not be changed.'));
    },
    onSettled: () => void refresh(),
  });
  if (serverSigns(wallet.kind)) return null;
  const d = wallet.delegation;
  const on = d?.enabled === true;
  const owed = d ? owedText(d.fees_owed) : undefined;
  const busy = run.isPending ? run.variables : undefined;
  return (
    <div className="delegation-row" data-testid="delegation">
      <p className="custody-note">
        {on
          ? 'Delegated trading is on: Ledgerpad can place and cancel orders and set trust lines for this wallet, never send its funds.'
          : 'Delegated trading is off: every order is signed here. Turn it on to place limit orders without a signature each time (orders, cancels and trust lines only — never payments).'}
      </p>
      {owed && (
        <p className="custody-note" data-testid="fees-owed">
          Owes {owed} in platform fees from delegated trades.
        </p>
      )}
      <div className="wallet-actions">
        {on ? (
          <button
            type="button"
            className="btn-secondary"
            disabled={run.isPending}
            onClick={() => run.mutate('revoke')}
          >
            {busy === 'revoke' ? 'Revoking…' : 'Revoke delegation'}
          </button>
        ) : (
          <button
            type="button"
            className="btn-secondary"
            disabled={run.isPending}
            onClick={() => run.mutate('enable')}
          >
            {busy === 'enable' ? 'Enabling…' : 'Enable delegated trading'}
          </button>
        )}
        {owed && (
          <button type="button" disabled={run.isPending} onClick={() => run.mutate('pay')}>
            {busy === 'pay' ? 'Paying…' : 'Pay fees'}
          </button>
        )}
      </div>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </div>
  );
}
