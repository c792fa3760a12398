import type { ReactNode } from 'react';
import { DeliberateButton } from './deliberate-button';
import { Modal, ModalActions } from './modal';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The confirm button's label while `busy`. */
  busyLabel: string;
  busy?: boolean;
  /** Shown above the buttons; the dialog stays open so the user can read it and retry or cancel. */
  error?: string;
  danger?: boolean;
  onConfirm: () => void;
}

/**
 * Asks before an action that can't be undone from here (remove a wallet, a trust line, a trade at a
 * high price impact). Its confirm button only takes a deliberate click (DeliberateButton, issue 39).
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  children,
  confirmLabel,
  busyLabel,
  busy,
  error,
  danger,
  onConfirm,
}: ConfirmDialogProps) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={title} role="alertdialog" dismissible={!busy}>
      <div className="confirm-body">{children}</div>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
      <ModalActions>
        <button type="button" className="btn-secondary" onClick={() => onOpenChange(false)} disabled={busy}>
          Cancel
        </button>
        <DeliberateButton className={danger ? 'btn-danger' : undefined} onClick={onConfirm} disabled={busy}>
          {busy ? busyLabel : confirmLabel}
        </DeliberateButton>
      </ModalActions>
    </Modal>
  );
}
