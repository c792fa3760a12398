import { lazy, Suspense } from 'react';
import type { UserResponse } from '@ledgerpad/shared';
import { apiPost } from '../lib/api';
import { useAuthMethods } from '../lib/auth-methods';
import { withReferral } from '../lib/referral-link';
import { useSessionActions } from '../lib/session';
import { GoogleSignIn } from './google-sign-in';

// The demo sign-in form (react-hook-form and the server's zod check, ~40 KB gzip) is a chunk of
// its own: the box is on `/`, whose first screen is the token list (issue 40).
const DemoSignInForm = lazy(() => import('./demo-sign-in-form').then((m) => ({ default: m.DemoSignInForm })));

/** The form's frame while its chunk loads: same label and size, nothing to type into yet. */
function DemoSignInPlaceholder() {
  return (
    <div className="demo-login" aria-busy="true">
      {/* Not a label: the real field takes the name once it is here (nothing to fill before). */}
      <span className="demo-login-label">Demo account (embedded ledger)</span>
      <input disabled placeholder="Pick a username" aria-hidden="true" tabIndex={-1} />
      <button type="button" disabled>
        Sign in
      </button>
    </div>
  );
}

/**
 * The login box of the home page and of the sign-in prompt on tool pages. Telegram and Google appear
 * when the server has them configured; the demo sign-in exists only on the embedded ledger, so a
 * newcomer can try everything offline. After signing in the user goes to `returnTo` (default /).
 */
export function LoginBox({ returnTo }: { returnTo?: string }) {
  const { data: methods } = useAuthMethods();
  return (
    <section className="panel login-box" aria-labelledby="login-title">
      <h2 id="login-title">Log in to launch and trade</h2>
      <div className="login-methods">
        {methods?.telegram.enabled && methods.telegram.botUsername && (
          <TelegramButton botUsername={methods.telegram.botUsername} returnTo={returnTo} />
        )}
        {methods?.google.enabled && methods.google.clientId && (
          <GoogleSignIn clientId={methods.google.clientId} returnTo={returnTo} />
        )}
      </div>
      {methods?.demo.enabled && (
        <Suspense fallback={<DemoSignInPlaceholder />}>
          <DemoSignInForm returnTo={returnTo} />
        </Suspense>
      )}
    </section>
  );
}

/** The messenger's login widget posts its signed auth result back; the server verifies it. */
function TelegramButton({ botUsername, returnTo }: { botUsername: string; returnTo?: string }) {
  const { signedIn } = useSessionActions();
  const ref = (node: HTMLDivElement | null) => {
    if (!node || node.childElementCount > 0) return;
    const callback = '__ledgerpadTelegramAuth';
    (window as unknown as Record<string, unknown>)[callback] = async (auth: unknown) => {
      try {
        const { user } = await apiPost<UserResponse>(withReferral('/api/auth/telegram'), auth);
        signedIn(user, returnTo);
      } catch {
        // Login failures are logged only (spec §8).
      }
    };
    const script = document.createElement('script');
    script.async = true;
    script.src = 'https://telegram.org/js/telegram-widget.js?22';
    script.dataset.telegramLogin = botUsername;
    script.dataset.size = 'large';
    script.dataset.onauth = `${callback}(user)`;
    script.dataset.requestAccess = 'write';
    node.appendChild(script);
  };
  return <div ref={ref} className="telegram-login" />;
}
