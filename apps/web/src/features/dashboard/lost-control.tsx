import { Link } from 'react-router';
import { tokenPath } from '@ledgerpad/shared';
import { useLostControl } from './api';

// A change of controller is shown to the user who lost it (issue 35): every listing this user
// controlled and another user's binding proof took over, with when, how and the proof. Silent when
// there is none (or the read fails: the token pages' public history says it too).

export function LostControlNotice({ userId }: { userId: number | undefined }) {
  const lost = useLostControl(userId);
  if (!lost.data || lost.data.length === 0) return null;
  return (
    <section
      className="panel lost-control"
      role="alert"
      aria-labelledby="lost-control-title"
      data-testid="lost-control"
    >
      <h2 id="lost-control-title">Listings you no longer control</h2>
      <ul>
        {lost.data.map((l) => (
          <li key={l.token_id}>
            {l.message} <Link to={tokenPath(l.issuer_address, l.currency)}>See its history</Link>
            {' · '}
            <Link
              to={`/list-token?${new URLSearchParams({ claim: l.issuer_address, currency: l.currency }).toString()}`}
            >
              Prove control again
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
