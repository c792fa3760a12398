import type { ReactNode } from 'react';
import type { AdminWalletRow } from '@ledgerpad/shared';
import { useAllWallets, useWalletOverview } from './api';

/** The platform's fee and service wallets, then every wallet the platform knows (no secrets). */
export function WalletsTab() {
  const overview = useWalletOverview();
  const wallets = useAllWallets();
  return (
    <div className="admin-stack">
      {overview.isPending ? (
        <p className="muted panel" aria-busy="true">
          Loading wallet overview…
        </p>
      ) : overview.isError ? (
        <p className="form-error panel" role="alert">
          Failed to load the wallet overview.
        </p>
      ) : (
        <div className="admin-wallet-cards">
          <section className="panel" aria-labelledby="admin-fee-wallet-heading">
            <h2 id="admin-fee-wallet-heading">Fee wallet</h2>
            <dl className="admin-dl">
              <Item label="Address">
                <span className="address">{overview.data.fee_wallet.address ?? 'Not configured'}</span>
              </Item>
              <Item label="Balance">{overview.data.fee_wallet.balance} XRP</Item>
              <Item label="Unclaimed reserves">{overview.data.fee_wallet.unclaimed_reserves} XRP</Item>
              <Item label="RLUSD balance">{overview.data.fee_wallet.rlusd_balance} RLUSD</Item>
              <Item label="Unclaimed RLUSD">{overview.data.fee_wallet.unclaimed_rlusd} RLUSD</Item>
            </dl>
          </section>
          <section className="panel" aria-labelledby="admin-service-wallet-heading">
            <h2 id="admin-service-wallet-heading">Service wallet</h2>
            <dl className="admin-dl">
              <Item label="Address">
                <span className="address">{overview.data.service_wallet.address ?? 'Not configured'}</span>
              </Item>
              <Item label="Balance">{overview.data.service_wallet.balance} XRP</Item>
            </dl>
          </section>
        </div>
      )}

      <section className="panel" aria-labelledby="admin-all-wallets-heading">
        <h2 id="admin-all-wallets-heading">All wallets</h2>
        {wallets.isPending ? (
          <p className="muted" aria-busy="true">
            Loading wallets…
          </p>
        ) : wallets.isError ? (
          <p className="form-error" role="alert">
            Failed to load the wallets.
          </p>
        ) : (
          <>
            <WalletTable title="Platform wallets" rows={wallets.data.platform_wallets} />
            <WalletTable title="User wallets" rows={wallets.data.user_wallets} />
          </>
        )}
      </section>
    </div>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="admin-dl-item">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function WalletTable({ title, rows }: { title: string; rows: AdminWalletRow[] }) {
  return (
    <>
      <h3 className="admin-subheading">
        {title} <span className="muted">({rows.length})</span>
      </h3>
      {rows.length === 0 ? (
        <p className="empty-state">None.</p>
      ) : (
        <div className="table-scroll admin-table-wrap">
          <table className="admin-table" aria-label={title}>
            <thead>
              <tr>
                <th scope="col">ID</th>
                <th scope="col">User</th>
                <th scope="col">Role</th>
                <th scope="col">Name</th>
                <th scope="col">Address</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((w) => (
                <tr key={w.id}>
                  <td>{w.id}</td>
                  <td>{w.user_id ?? '—'}</td>
                  <td>{w.role}</td>
                  <td>{w.name ?? '—'}</td>
                  <td className="address">{w.address}</td>
                  <td>{new Date(w.created_at).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
