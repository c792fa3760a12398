import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  currencyToTicker,
  type AdminWalletRow,
  type StagedWalletBalance,
  type StagedWalletView,
  Decimal,
} from '@ledgerpad/shared';
import { LoadFailed } from '../../components/load-failed';
import { RefundDialog, type RefundTarget } from './refund-dialog';
import { useAllWallets, useStagedBalances, useStagedWallets } from './api';
import { adminKeys } from './keys';

const TYPE_LABEL: Record<StagedWalletView['type'], string> = { issuer: 'Issuer', hot: 'Hot wallet' };

const positive = (v: string | undefined) => {
  try {
    return v !== undefined && new Decimal(v).gt(0);
  } catch {
    return false;
  }
};

/**
 * Deployment Wallets: the issuer and hot wallets deploy jobs staged whose deploy failed or never
 * finished (all of them with 'Show all'), their balances on the ledger, and a refund per wallet and
 * asset to a chosen or typed address.
 */
export function DeployWalletsTab() {
  const [showAll, setShowAll] = useState(false);
  const staged = useStagedWallets(showAll);
  const balances = useStagedBalances();
  const wallets = useAllWallets();
  const [target, setTarget] = useState<RefundTarget | null>(null);
  const [refundingId, setRefundingId] = useState<number | null>(null);
  const queryClient = useQueryClient();

  return (
    <section className="panel" aria-labelledby="admin-staged-heading">
      <div className="admin-panel-head">
        <h2 id="admin-staged-heading">Deployment wallets</h2>
        <label className="admin-toggle">
          <input type="checkbox" checked={showAll} onChange={(e) => setShowAll(e.target.checked)} />
          <span>Show all</span>
        </label>
      </div>
      <p className="muted admin-note">
        {showAll
          ? 'Every wallet a deploy staged, completed deploys included.'
          : 'Wallets of deploys that failed or never finished (orphaned). Their XRP and tokens can be refunded.'}
      </p>
      {staged.isPending ? (
        <p className="muted" aria-busy="true">
          Loading deployment wallets…
        </p>
      ) : staged.isError ? (
        <LoadFailed message="Failed to load the deployment wallets." onRetry={() => void staged.refetch()} />
      ) : staged.data.length === 0 ? (
        <p className="empty-state">
          {showAll ? 'No deploy has staged a wallet yet.' : 'No orphaned deployment wallets.'}
        </p>
      ) : (
        <ul className="admin-staged-list" aria-label="Deployment wallets">
          {staged.data.map((w) => (
            <StagedRow
              key={w.id}
              wallet={w}
              balance={balances.data?.[w.id]}
              balancesState={balances.isPending ? 'loading' : balances.isError ? 'error' : 'ready'}
              busy={refundingId === w.id}
              onRefund={(type, amount, asset) => setTarget({ wallet: w, type, amount, asset })}
            />
          ))}
        </ul>
      )}
      <RefundDialog
        target={target}
        destinations={destinationsFor(target?.wallet, wallets.data)}
        onClose={() => setTarget(null)}
        onBusy={(busy) => setRefundingId(busy && target ? target.wallet.id : null)}
        onRefunded={() => {
          for (const queryKey of [
            adminKeys.stagedBalances(),
            adminKeys.stagedWallets(),
            adminKeys.audit(),
            adminKeys.walletOverview(),
          ])
            void queryClient.invalidateQueries({ queryKey });
        }}
      />
    </section>
  );
}

/** Where a refund may go, offered first: the wallet owner's own wallets, then the platform's. */
function destinationsFor(
  wallet: StagedWalletView | undefined,
  all: { user_wallets: AdminWalletRow[]; platform_wallets: AdminWalletRow[] } | undefined,
) {
  if (!wallet || !all) return [];
  const owner = all.user_wallets
    .filter((w) => w.user_id === wallet.user_id && !w.role.startsWith('deploy_'))
    .map((w) => ({ address: w.address, label: `User #${w.user_id} · ${w.name ?? 'wallet'}` }));
  // The fee and service wallets are the platform's own accounts; the others (genesis, the RLUSD
  // issuer, the market maker) are not places to park a refund.
  const platform = all.platform_wallets
    .filter((w) => w.role === 'fee' || w.role === 'service')
    .map((w) => ({ address: w.address, label: `Platform · ${w.role} wallet` }));
  return [...owner, ...platform].filter((d) => d.address !== wallet.wallet_address);
}

function StagedRow({
  wallet,
  balance,
  balancesState,
  busy,
  onRefund,
}: {
  wallet: StagedWalletView;
  balance: StagedWalletBalance | undefined;
  balancesState: 'loading' | 'error' | 'ready';
  busy: boolean;
  onRefund: (type: RefundTarget['type'], amount: string, asset: string) => void;
}) {
  const ticker = balance?.currency ? currencyToTicker(balance.currency) : 'Token';
  const assets = [
    { type: 'xrp' as const, label: 'XRP', amount: balance?.xrp },
    { type: 'token' as const, label: ticker, amount: balance?.token },
    { type: 'rlusd' as const, label: 'RLUSD', amount: balance?.rlusd },
  ];
  return (
    <li className="admin-staged">
      <div className="admin-staged-head">
        <strong>
          #{wallet.id} · {TYPE_LABEL[wallet.type]}
        </strong>
        <span className="muted">
          {wallet.user_id === null ? 'No user' : `User #${wallet.user_id}`} · deploy {wallet.job_status} ·{' '}
          {new Date(wallet.created_at).toLocaleString()}
        </span>
      </div>
      <p className="address admin-staged-address">{wallet.wallet_address}</p>
      {balancesState === 'loading' ? (
        <p className="muted" aria-busy="true">
          Loading balances…
        </p>
      ) : balancesState === 'error' || !balance ? (
        <p className="form-error">Failed to load the balances.</p>
      ) : (
        <>
          {!balance.active && <p className="muted">Not on the ledger (never funded, or deleted).</p>}
          <dl className="admin-staged-balances">
            {assets.map((a) => (
              <div key={a.type}>
                <dt>{a.label}</dt>
                <dd>{a.amount ?? '0'}</dd>
              </div>
            ))}
          </dl>
          <div className="admin-staged-actions">
            {assets.map((a) => (
              <button
                key={a.type}
                type="button"
                className="btn-secondary"
                disabled={busy || !balance.active || !positive(a.amount)}
                onClick={() => onRefund(a.type, a.amount ?? '0', a.label)}
              >
                {busy ? 'Refunding…' : `Refund ${a.label}`}
              </button>
            ))}
          </div>
        </>
      )}
    </li>
  );
}
