import * as Dialog from '@radix-ui/react-dialog';
import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { DELIBERATE_DELAY_MS, DeliberateButton } from './deliberate-button';

export interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** Read out with the title; omit when the body explains itself. */
  description?: ReactNode;
  children?: ReactNode;
  /**
   * false: Escape, a click outside and the × do nothing; only the modal's own buttons close it (the
   * seed modal until "I saved it" is ticked, a transfer while it is being sent).
   */
  dismissible?: boolean;
  /** 'alertdialog' for confirmations and answers the user must acknowledge. */
  role?: 'dialog' | 'alertdialog';
  className?: string;
}

/**
 * Since when the modal last appeared, changed size or was pressed inside (issue 39): a press outside
 * it within DELIBERATE_DELAY_MS of that was aimed at what stood there before — the second click of a
 * double click on 'Review' lands on the backdrop once the confirm step is smaller — and must not
 * throw the form away. A press inside counts too: the second press of a double click can come before
 * the browser reports the new size (a ResizeObserver fires with the next frame). Returns the
 * content's ref callback, its pointerdown (capture) handler, and whether an outside press is too early.
 */
function useSettledBox(open: boolean): {
  ref: (el: HTMLDivElement | null) => void;
  pressedInside: () => void;
  tooEarly: () => boolean;
} {
  const changedAt = useRef(0);
  const observer = useRef<ResizeObserver | null>(null);
  useEffect(() => {
    if (open) changedAt.current = Date.now();
  }, [open]);
  const ref = useCallback((el: HTMLDivElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!el) return;
    changedAt.current = Date.now();
    if (typeof ResizeObserver === 'undefined') return;
    observer.current = new ResizeObserver(() => {
      changedAt.current = Date.now();
    });
    observer.current.observe(el);
  }, []);
  return {
    ref,
    pressedInside: () => {
      changedAt.current = Date.now();
    },
    tooEarly: () => Date.now() - changedAt.current < DELIBERATE_DELAY_MS,
  };
}

/**
 * The app's modal on Radix Dialog: focus trapped and returned to the opener, Escape and outside
 * click close it (unless `dismissible` is false), scrolls inside itself on small screens. An outside
 * click right after it appeared or changed size does not close it (`useSettledBox`).
 */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  dismissible = true,
  role = 'dialog',
  className,
}: ModalProps) {
  const box = useSettledBox(open);
  const block = (event: Event) => {
    if (!dismissible) event.preventDefault();
  };
  const blockOutside = (event: Event) => {
    if (!dismissible || box.tooEarly()) event.preventDefault();
  };
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next || dismissible ? onOpenChange(next) : undefined)}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content
          ref={box.ref}
          onPointerDownCapture={box.pressedInside}
          className={className ? `dialog modal ${className}` : 'dialog modal'}
          role={role}
          onEscapeKeyDown={block}
          onPointerDownOutside={blockOutside}
          onInteractOutside={blockOutside}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div className="modal-header">
            <Dialog.Title className="dialog-title">{title}</Dialog.Title>
            {dismissible && (
              <Dialog.Close className="icon-button modal-close" aria-label="Close">
                <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
                  <path
                    d="M6 6l12 12M18 6L6 18"
                    stroke="currentColor"
                    strokeWidth="2"
                    strokeLinecap="round"
                  />
                </svg>
              </Dialog.Close>
            )}
          </div>
          {description && <Dialog.Description className="muted">{description}</Dialog.Description>}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The row of buttons at the bottom of a modal; the primary action goes last. */
export function ModalActions({ children }: { children: ReactNode }) {
  return <div className="dialog-actions modal-actions">{children}</div>;
}

/**
 * A finished modal's one button (a sent payment, a paid claim): it closes the modal. Its text is
 * the caller's ('Done' after an action, 'Close' or 'OK' after a message).
 */
export function CloseActions({ onClose, label = 'Done' }: { onClose: () => void; label?: string }) {
  return (
    <ModalActions>
      <button type="button" onClick={onClose}>
        {label}
      </button>
    </ModalActions>
  );
}

/**
 * A confirm step's Back and confirm buttons (a two-step modal: form, then "confirm and send"). While
 * `pending`, both are disabled; `label` is the confirm button's text as the caller words it. The
 * confirm button is a DeliberateButton: the second click of a double click on 'Review' is not it.
 */
export function ConfirmActions({
  onBack,
  onConfirm,
  label,
  pending,
}: {
  onBack: () => void;
  onConfirm: () => void;
  label: ReactNode;
  pending: boolean;
}) {
  return (
    <ModalActions>
      <button type="button" className="btn-secondary" disabled={pending} onClick={onBack}>
        Back
      </button>
      <DeliberateButton disabled={pending} onClick={onConfirm}>
        {label}
      </DeliberateButton>
    </ModalActions>
  );
}

/**
 * A form modal's Cancel and submit buttons (the form's onSubmit does the work). While `pending`,
 * both are disabled and the submit button reads `pendingLabel`.
 */
export function SubmitActions({
  onCancel,
  label,
  pending = false,
  pendingLabel = 'Saving…',
}: {
  onCancel: () => void;
  label: string;
  pending?: boolean;
  pendingLabel?: string;
}) {
  return (
    <ModalActions>
      <button type="button" className="btn-secondary" onClick={onCancel} disabled={pending}>
        Cancel
      </button>
      <button type="submit" disabled={pending}>
        {pending ? pendingLabel : label}
      </button>
    </ModalActions>
  );
}
