import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { demoAuthSchema, type UserResponse } from '@ledgerpad/shared';
import { apiPost, userMessage } from '../lib/api';
import { requestResolver } from '../lib/form-resolver';
import { withReferral } from '../lib/referral-link';
import { useSessionActions } from '../lib/session';

/** The demo sign-in of the login box (embedded ledger only). After signing in the user goes to `returnTo`. */
export function DemoSignInForm({ returnTo }: { returnTo?: string }) {
  const { signedIn } = useSessionActions();
  // The server's own check of a demo username (3-32 letters, digits or underscores), on the trimmed name.
  const { register, handleSubmit, watch, formState } = useForm<{ username: string }>({
    resolver: requestResolver(demoAuthSchema, (v) => ({ username: v.username.trim() })),
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
  );
}
