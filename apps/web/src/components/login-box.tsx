import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { UserResponse } from '@ledgerpad/shared';
import { apiPost, userMessage } from '../lib/api';
import { lazyResolver } from '../lib/lazy-resolver';
import { useAuthMethods } from '../lib/auth-methods';
import { withReferral } from '../lib/referral-link';
import { useSessionActions } from '../lib/session';
import { GoogleSignIn } from './google-sign-in';

const demoResolver = lazyResolver(() => import('./demo-sign-in-check').then((m) => m.demoSignInResolver));

/**
 * The login box of the home page and of the sign-in prompt on tool pages. Telegram and Google appear
 * when the server has them configured; the demo sign-in exists only on the embedded ledger, so a
 * newcomer can try everything offline. After signing in the user goes to `returnTo` (default /).
 */
export function LoginBox({ returnTo }: { returnTo?: string }) {
  const { data: methods } = useAuthMethods();
  const { signedIn } = useSessionActions();
  // The server's own check of a demo username, loaded at the first submit (the box is on `/`).
  const { register, handleSubmit, watch, formState } = useForm<{ username: string }>({
    resolver: demoResolver,
    defaultValues: { username: '' },
  });
  /** The server's refusal, or 'Network Error'. */
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const username = watch('username');
  const error = formState.errors.username?.message ?? failure;

  const demoSignIn = async (values: { username: string }) => {
    setBusy(true);
    setFailure(undefined);
    try {
      const { user } = await apiPost<UserResponse>(withReferral('/api/auth/demo'), {
        username: values.username.trim(),
      });
      signedIn(user, returnTo);
    } catch (err) {
      setFailure(userMessage(err, 'Network Error'));
    } finally {
      setBusy(false);
    }
  };

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
        <form className="demo-login" onSubmit={(e) => void handleSubmit(demoSignIn)(e)}>
          <label htmlFor="demo-username">Demo account (embedded ledger)</label>
          <input
            id="demo-username"
            {...register('username')}
            placeholder="Pick a username"
            autoComplete="username"
          />
          <button type="submit" disabled={busy || username.trim().length === 0}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
          {error && (
            <p role="alert" className="error">
              {error}
            </p>
          )}
        </form>
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
