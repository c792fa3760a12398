import { useState } from 'react';
import { DASHBOARD_MESSAGES, type IssuerWalletResponse, type TokenView } from '@ledgerpad/shared';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Modal, ModalActions } from '../../components/modal';
import { userMessage } from '../../lib/api';
import { dashboardCalls, useDashboardWrite, useIssuerNow } from './api';

const failure = (fallback: string, err: unknown) => [fallback, userMessage(err)].filter(Boolean).join(' ');

/** The notice a blackholed issuer gets (spec §4: irreversible, 'RIP Issuer Wallet'). */
function RipNotice({ titled = true }: { titled?: boolean }) {
  return (
    <div className="rip-notice" role="status">
      {titled && <strong>{DASHBOARD_MESSAGES.ripIssuer}</strong>}
      <p>
        The issuer’s master key is disabled and its regular key is a black-hole address nobody holds. It can
        never sign again: the supply is fixed for good, and no line can be frozen or authorized any more.
      </p>
    </div>
  );
}

/**
 * The issuer wallet's state as the ledger has it: Require Authorization (can be turned off) and
 * active or blackholed (irreversible, behind a confirmation modal).
 */
export function IssuerPanel({ token, issuer }: { token: TokenView; issuer: IssuerWalletResponse }) {
  const [confirmAuth, setConfirmAuth] = useState(false);
  const [blackholeOpen, setBlackholeOpen] = useState(false);
  const issuerNow = useIssuerNow(token.id);
  const disableAuth = useDashboardWrite(
    token.id,
    (_: undefined, key) => dashboardCalls.disableRequireAuth(token.id, key),
    {
      fallback: DASHBOARD_MESSAGES.disableRequireAuthFailed,
      done: () => 'Require Authorization is off: anyone can now hold this token.',
      toastErrors: false,
      // Irreversible once done: a lost answer is checked on the ledger before saying 'failed'.
      confirmed: async () => !(await issuerNow()).requireAuthEnabled,
    },
  );

  return (
    <section className="panel" aria-labelledby="issuer-title">
      <h2 id="issuer-title">Issuer wallet</h2>
      <dl className="dashboard-facts">
        <div>
          <dt>Require Authorization</dt>
          <dd data-testid="require-auth">{issuer.requireAuthEnabled ? 'Enabled' : 'Disabled'}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd data-testid="issuer-status">{issuer.isBlackholed ? 'Blackholed' : 'Active'}</dd>
        </div>
      </dl>
      {issuer.isBlackholed ? (
        <RipNotice />
      ) : (
        <div className="summary-actions">
          {issuer.requireAuthEnabled && (
            <button type="button" className="btn-secondary" onClick={() => setConfirmAuth(true)}>
              Disable Require Auth
            </button>
          )}
          <button type="button" className="btn-danger" onClick={() => setBlackholeOpen(true)}>
            Blackhole Issuer
          </button>
        </div>
      )}
      <ConfirmDialog
        open={confirmAuth}
        onOpenChange={(open) => {
          setConfirmAuth(open);
          if (!open) disableAuth.reset();
        }}
        title="Disable Require Authorization?"
        confirmLabel="Disable"
        busyLabel="Disabling…"
        busy={disableAuth.isPending}
        error={
          disableAuth.isError
            ? failure(DASHBOARD_MESSAGES.disableRequireAuthFailed, disableAuth.error)
            : undefined
        }
        onConfirm={() => disableAuth.mutate(undefined, { onSuccess: () => setConfirmAuth(false) })}
      >
        <p>
          Anyone will be able to open a trust line and hold {token.ticker} without your approval. The ledger
          only lets an issuer turn this flag back on while it has no trust lines at all.
        </p>
      </ConfirmDialog>
      {blackholeOpen && <BlackholeModal token={token} onClose={() => setBlackholeOpen(false)} />}
    </section>
  );
}

/** Confirms the blackhole, then shows the 'RIP Issuer Wallet' notice once the ledger has it. */
function BlackholeModal({ token, onClose }: { token: TokenView; onClose: () => void }) {
  const [understood, setUnderstood] = useState(false);
  const issuerNow = useIssuerNow(token.id);
  const blackhole = useDashboardWrite(
    token.id,
    (_: undefined, key) => dashboardCalls.blackhole(token.id, key),
    {
      fallback: DASHBOARD_MESSAGES.blackholeFailed,
      done: () => `${token.ticker} issuer blackholed.`,
      toastErrors: false,
      // Irreversible: when the answer was lost but the ledger shows it done, it is done.
      confirmed: async () => (await issuerNow()).isBlackholed,
    },
  );
  const done = blackhole.isSuccess;
  return (
    <Modal
      open
      onOpenChange={(open) => !open && !blackhole.isPending && onClose()}
      dismissible={!blackhole.isPending}
      role="alertdialog"
      title={done ? DASHBOARD_MESSAGES.ripIssuer : 'Blackhole the issuer wallet?'}
    >
      {done ? (
        <RipNotice titled={false} />
      ) : (
        <div className="confirm-body">
          <p>
            This sets the issuer’s regular key to a black-hole address and disables its master key. Nobody —
            not you, not Ledgerpad — can sign for the issuer again.
          </p>
          <ul className="dashboard-list">
            <li>No more {token.ticker} can ever be issued.</li>
            <li>Trust lines can no longer be frozen or authorized.</li>
            <li>Require Authorization can no longer be turned off.</li>
          </ul>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={understood}
              onChange={(e) => setUnderstood(e.target.checked)}
              disabled={blackhole.isPending}
            />
            I understand this cannot be undone.
          </label>
        </div>
      )}
      {blackhole.isError && (
        <p role="alert" className="form-error">
          {failure(DASHBOARD_MESSAGES.blackholeFailed, blackhole.error)}
        </p>
      )}
      <ModalActions>
        {done ? (
          <button type="button" onClick={onClose}>
            Close
          </button>
        ) : (
          <>
            <button type="button" className="btn-secondary" onClick={onClose} disabled={blackhole.isPending}>
              Cancel
            </button>
            <button
              type="button"
              className="btn-danger"
              disabled={!understood || blackhole.isPending}
              onClick={() => blackhole.mutate(undefined)}
            >
              {blackhole.isPending ? 'Blackholing…' : 'Blackhole Issuer'}
            </button>
          </>
        )}
      </ModalActions>
    </Modal>
  );
}
