import * as Dialog from '@radix-ui/react-dialog';
import type { RefObject } from 'react';
import { Link } from 'react-router';

/**
 * 'Buy XRP' (XRPL Tools). The card on-ramp is not wired to this server yet, so the menu item opens
 * this notice instead of doing nothing. The dialog has no trigger of its own (a menu item opens it),
 * so it hands focus back to `returnFocusTo` when it closes.
 */
export function BuyXrpDialog({
  open,
  onOpenChange,
  returnFocusTo,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content
          className="dialog"
          onCloseAutoFocus={(event) => {
            const target = returnFocusTo?.current;
            if (target?.isConnected) {
              event.preventDefault();
              target.focus();
            }
          }}
        >
          <Dialog.Title className="dialog-title">Buy XRP with a card</Dialog.Title>
          <Dialog.Description>Card purchases are not configured on this server.</Dialog.Description>
          <p className="muted">
            On the embedded test ledger you can get test XRP for free: open the{' '}
            <Link to="/wallets" onClick={() => onOpenChange(false)}>
              Wallets
            </Link>{' '}
            page and use &lsquo;Fund with test XRP&rsquo;.
          </p>
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <button type="button">Close</button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
