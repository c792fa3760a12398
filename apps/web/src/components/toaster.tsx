import { Toaster as Sonner } from 'sonner';
import { TOAST_AUTO_CLOSE_MS } from '@ledgerpad/shared';

/** The toast area of every page (spec §2): bottom-right, closing after 3 s. */
export function Toaster() {
  return (
    <Sonner
      position="bottom-right"
      duration={TOAST_AUTO_CLOSE_MS}
      theme="dark"
      richColors
      closeButton
      toastOptions={{ className: 'toast' }}
    />
  );
}
