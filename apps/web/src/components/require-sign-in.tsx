import { lazy, Suspense, type ReactNode } from 'react';
import { useSession } from '../lib/session';
import { PageSkeleton } from './page-skeleton';

// The prompt carries the login box; only signed-out visitors of a tool page download it.
const SignInPrompt = lazy(() => import('./sign-in-prompt').then((m) => ({ default: m.SignInPrompt })));

/**
 * Tool pages are for signed-in users (spec §6). While the session loads the page stays a skeleton,
 * so a signed-in user never sees the prompt flash; a signed-out visitor gets the sign-in prompt.
 */
export function RequireSignIn({ title, children }: { title: string; children: ReactNode }) {
  const session = useSession();
  if (session.status === 'loading') return <PageSkeleton />;
  if (session.status === 'anonymous') {
    return (
      <Suspense fallback={<PageSkeleton />}>
        <SignInPrompt title={title} />
      </Suspense>
    );
  }
  return children;
}
