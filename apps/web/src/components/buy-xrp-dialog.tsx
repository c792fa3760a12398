import * as Dialog from '@radix-ui/react-dialog';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'react-router';
import { toast } from 'sonner';
import {
  CARD_WIDGET_HOME,
  CARD_WIDGET_Z_INDEX,
  ONRAMP_CLOSE_REQUEST,
  ONRAMP_MESSAGES,
  homeOnrampConfig,
  onrampConfigError,
  onrampEvent,
  onrampLayout,
  onrampOrigin,
  onrampWidgetUrl,
  type OnrampEventName,
  type OnrampWidgetConfig,
} from '@ledgerpad/shared';
import { useOnrampConfig } from '../lib/onramp';
import './buy-xrp-dialog.css';
import { useSession } from '../lib/session';

/**
 * 'Buy XRP' (XRPL Tools) and the home page's 'Buy XRP/Crypto with Card': the card on-ramp widget
 * (spec 000 §3–§5). The widget is the provider's page in an iframe inside our own modal (backdrop
 * z-index 9997, frame 9998, close button 9999); it closes by its button, a backdrop click, Escape
 * or the widget's close message. Without a key on the server, or with an unusable configuration,
 * a dialog says why instead. The dialog has no trigger of its own, so it hands focus back to
 * `returnFocusTo` when it closes.
 */
export function BuyXrpDialog({
  open,
  onOpenChange,
  returnFocusTo,
  variant = 'menu',
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo?: RefObject<HTMLElement | null>;
  /** 'home': the landing page's instance, 450 × 600 (the menu's uses the widget's 480 × 650). */
  variant?: 'home' | 'menu';
}) {
  const onramp = useOnrampConfig();
  const session = useSession();
  if (!open) return null;
  if (onramp.status === 'loading') return null;
  const email = session.status === 'signed-in' ? session.user.email : null;
  const config: OnrampWidgetConfig | null =
    onramp.status === 'configured'
      ? variant === 'home'
        ? homeOnrampConfig(onramp.config, email)
        : {
            ...homeOnrampConfig(onramp.config, email),
            widgetWidth: undefined,
            widgetHeight: undefined,
          }
      : null;
  const error = config ? onrampConfigError(config, (id) => document.getElementById(id) !== null) : null;
  const close = () => {
    onOpenChange(false);
    const target = returnFocusTo?.current;
    if (target?.isConnected) target.focus();
  };
  if (config && !error) return <OnrampWidgetModal config={config} onClose={close} />;
  return (
    <Dialog.Root open onOpenChange={onOpenChange}>
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
          {error ? (
            <Dialog.Description role="alert" className="error">
              {error}
            </Dialog.Description>
          ) : (
            <Dialog.Description>{ONRAMP_MESSAGES.notConfigured}.</Dialog.Description>
          )}
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

/** What the app tells the user about the widget's events (the rest are handled silently). */
const EVENT_TOASTS: Partial<Record<OnrampEventName, (t: typeof toast) => void>> = {
  orderCreated: (t) => t.info('Card order created.'),
  orderSuccessful: (t) =>
    t.success(`Card purchase successful: your ${CARD_WIDGET_HOME.currency} is on its way.`),
  orderCancelled: (t) => t.info('Card order cancelled.'),
  orderFailed: (t) => t.error('Card order failed.'),
};

function OnrampWidgetModal({ config, onClose }: { config: OnrampWidgetConfig; onClose: () => void }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const [ready, setReady] = useState(false);
  const environment = config.environment ?? 'STAGING';
  const { themeColor, width, height } = onrampLayout(config);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  // Lets the widget wind down (it answers with its close event), and closes at once either way.
  // Changes only with the environment, so the effect below keeps its listeners.
  const requestClose = useCallback(() => {
    frame.current?.contentWindow?.postMessage({ event_id: ONRAMP_CLOSE_REQUEST }, onrampOrigin(environment));
    onCloseRef.current();
  }, [environment]);

  useEffect(() => {
    const origin = onrampOrigin(environment);
    const onMessage = (message: MessageEvent) => {
      // Only the widget's own frame speaks for it.
      if (message.origin !== origin || message.source !== frame.current?.contentWindow) return;
      const event = onrampEvent(message.data);
      if (!event) return;
      switch (event.name) {
        case 'initialised':
          setReady(true);
          break;
        case 'widgetClose':
          onCloseRef.current();
          break;
        case 'walletRedirection':
        case 'userInfoReceived':
          // Nothing to show: the widget carries on by itself.
          break;
        default:
          EVENT_TOASTS[event.name]?.(toast);
      }
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') requestClose();
    };
    window.addEventListener('message', onMessage);
    window.addEventListener('keydown', onKey);
    closeButton.current?.focus();
    // The page behind the modal stays put.
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      window.removeEventListener('message', onMessage);
      window.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
    };
  }, [environment, requestClose]);

  return createPortal(
    <div
      className="onramp-root"
      data-testid="onramp-backdrop"
      style={{ zIndex: CARD_WIDGET_Z_INDEX.min }}
      onClick={(e) => {
        if (e.target === e.currentTarget) requestClose();
      }}
    >
      <div
        className="onramp-modal"
        role="dialog"
        aria-modal="true"
        aria-label="Buy XRP with a card"
        style={{ zIndex: CARD_WIDGET_Z_INDEX.min + 1, width, height }}
      >
        <button
          ref={closeButton}
          type="button"
          className="onramp-close"
          aria-label="Close"
          style={{ zIndex: CARD_WIDGET_Z_INDEX.max, color: `#${themeColor}` }}
          onClick={requestClose}
        >
          ×
        </button>
        {!ready && <p className="onramp-loading muted">Loading the card payment widget…</p>}
        <iframe
          ref={frame}
          className="onramp-frame"
          title="Card payment"
          src={onrampWidgetUrl(config)}
          allow="camera;microphone;payment"
        />
      </div>
    </div>,
    document.body,
  );
}
