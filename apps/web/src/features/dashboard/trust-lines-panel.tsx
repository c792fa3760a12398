import { useState } from 'react';
import {
  currencyToTicker,
  DASHBOARD_MESSAGES,
  type DashboardTrustLine,
  type TokenView,
} from '@ledgerpad/shared';
import { CopyButton } from '../../components/copy-button';
import {
  dashboardCalls,
  groupDigits,
  shortAddress,
  useDashboardWrite,
  useOwnAddresses,
  useTrustLines,
} from './api';
import { LoadFailed } from '../../components/load-failed';
import { SetLineLimit } from './set-line-limit';

/**
 * The trust lines table: every holder's line as the ledger has it (limit and balance on the
 * holder's side, the issuer's authorization and freeze), with freeze/unfreeze, authorize, set
 * limit and sync. It scrolls sideways inside its panel on narrow screens, never the page.
 */
export function TrustLinesPanel({
  token,
  requireAuth,
  blackholed,
}: {
  token: TokenView;
  requireAuth: boolean;
  blackholed: boolean;
}) {
  const lines = useTrustLines(token.id);
  const own = useOwnAddresses();
  const [limitFor, setLimitFor] = useState<DashboardTrustLine | null>(null);
  const ticker = currencyToTicker(token.currency);

  const freeze = useDashboardWrite(
    token.id,
    (line: DashboardTrustLine, key) =>
      dashboardCalls.freeze(
        token.id,
        { accountAddress: line.account_address, currency: token.currency, freeze: !line.freeze },
        key,
      ),
    {
      fallback: DASHBOARD_MESSAGES.freezeFailed,
      done: (line) =>
        `Trust line of ${shortAddress(line.account_address)} ${line.freeze ? 'unfrozen' : 'frozen'}.`,
    },
  );
  const authorize = useDashboardWrite(
    token.id,
    (line: DashboardTrustLine, key) => dashboardCalls.authorize(token.id, line.account_address, key),
    {
      fallback: DASHBOARD_MESSAGES.authorizeFailed,
      done: (line) => `Trust line of ${shortAddress(line.account_address)} authorized.`,
    },
  );
  const sync = useDashboardWrite(
    token.id,
    (_: undefined, key) =>
      dashboardCalls.sync(token.id, { issuerAddress: token.issuer_address, currency: token.currency }, key),
    { fallback: DASHBOARD_MESSAGES.syncFailed, done: () => 'Trust lines synced from the ledger.' },
  );

  const busyAccount =
    (freeze.isPending && freeze.variables?.account_address) ||
    (authorize.isPending && authorize.variables?.account_address);
  const writesLocked = blackholed || freeze.isPending || authorize.isPending;

  return (
    <section className="panel dashboard-lines" aria-labelledby="trust-lines-title">
      <div className="dashboard-panel-head">
        <h2 id="trust-lines-title">Trust lines{lines.data ? ` (${lines.data.trustLines.length})` : ''}</h2>
        <button
          type="button"
          className="btn-secondary"
          onClick={() => sync.mutate(undefined)}
          disabled={sync.isPending}
        >
          {sync.isPending ? 'Syncing…' : 'Sync'}
        </button>
      </div>
      {blackholed && (
        <p className="muted small">
          The issuer is blackholed: these lines can still be read, but never frozen or authorized again.
        </p>
      )}
      {lines.isPending ? (
        <p className="muted" aria-busy="true">
          Loading trust lines…
        </p>
      ) : lines.isError ? (
        <LoadFailed
          className="error-inline"
          message={DASHBOARD_MESSAGES.fetchTrustLinesFailed}
          error={lines.error}
          onRetry={() => void lines.refetch()}
        />
      ) : lines.data.trustLines.length === 0 ? (
        <p className="empty-state">No trust lines to this issuer yet.</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Trust lines table">
          <table className="lines-table">
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col">Limit</th>
                <th scope="col">Balance ({ticker})</th>
                <th scope="col">Authorized</th>
                <th scope="col">Frozen</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {lines.data.trustLines.map((line) => {
                const mine = own.data?.has(line.account_address) === true;
                const rowBusy = busyAccount === line.account_address;
                return (
                  <tr key={line.account_address} data-account={line.account_address}>
                    <td data-label="Account">
                      <span className="dashboard-account">
                        <span className="address" title={line.account_address}>
                          {shortAddress(line.account_address)}
                        </span>
                        <CopyButton
                          value={line.account_address}
                          label="Copy address"
                          copiedMessage="Address copied"
                          failedMessage="Failed to copy address."
                        />
                      </span>
                      {mine && <span className="muted small"> your wallet</span>}
                      {line.account_label && (
                        <span className="system-account" data-testid="system-account">
                          {line.account_label}
                        </span>
                      )}
                    </td>
                    <td className="num" data-label="Limit">
                      <span className="figure">{groupDigits(line.limit_amount)}</span>
                    </td>
                    <td className="num" data-label={`Balance (${ticker})`}>
                      <span className="figure">{groupDigits(line.balance)}</span>
                    </td>
                    <td data-label="Authorized">
                      {requireAuth || line.authorized ? (line.authorized ? 'Yes' : 'No') : 'Not required'}
                    </td>
                    <td data-label="Frozen">
                      <span className={line.freeze ? 'line-state frozen' : 'line-state'}>
                        {line.freeze ? 'Frozen' : 'No'}
                      </span>
                    </td>
                    <td data-label="Actions">
                      {/* An AMM pool's, a curve's or Ledgerpad's own line is not a holder's (issue 24). */}
                      {line.account_label ? (
                        <span className="muted small">Not a holder</span>
                      ) : (
                        <div className="dashboard-row-actions">
                          <button
                            type="button"
                            className={line.freeze ? 'btn-secondary' : 'btn-danger'}
                            disabled={writesLocked}
                            onClick={() => freeze.mutate(line)}
                          >
                            {rowBusy && freeze.isPending ? 'Saving…' : line.freeze ? 'Unfreeze' : 'Freeze'}
                          </button>
                          {requireAuth && !line.authorized && (
                            <button
                              type="button"
                              disabled={writesLocked}
                              onClick={() => authorize.mutate(line)}
                            >
                              {rowBusy && authorize.isPending ? 'Authorizing…' : 'Authorize'}
                            </button>
                          )}
                          {mine && (
                            <button type="button" className="btn-secondary" onClick={() => setLimitFor(line)}>
                              Set limit
                            </button>
                          )}
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <p className="muted small dashboard-note">
        Only a holder can change its own limit on the XRP Ledger, so Set limit appears on lines held by your
        own wallets.
      </p>
      {limitFor && <SetLineLimit token={token} line={limitFor} onClose={() => setLimitFor(null)} />}
    </section>
  );
}
