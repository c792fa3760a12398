import { useLocation } from 'react-router';
import { LoginBox } from './login-box';

/**
 * What a signed-out visitor sees on a tool page (spec §6: tools need a signed-in user). Signing in
 * here keeps them on the page they asked for.
 */
export function SignInPrompt({ title }: { title: string }) {
  const { pathname, search, hash } = useLocation();
  return (
    <>
      <section className="panel sign-in-prompt" aria-labelledby="sign-in-prompt-title">
        <h1 id="sign-in-prompt-title">{title}</h1>
        <p>Log in to use this tool. You will come back to this page once you are signed in.</p>
      </section>
      <LoginBox returnTo={`${pathname}${search}${hash}`} />
    </>
  );
}
