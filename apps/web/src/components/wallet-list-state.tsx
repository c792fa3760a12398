import { Link } from 'react-router';
import { LoadFailed } from './load-failed';

/**
 * What a page built on the user's wallets shows before it has them: loading, the load failed (with
 * a retry), or no wallets yet (a link to the Wallets page). The page renders its list otherwise.
 */
export function WalletListState({
  pending,
  failed,
  loading,
  error,
  onRetry,
}: {
  pending: boolean;
  failed: boolean;
  loading: string;
  error: string;
  onRetry: () => void;
}) {
  if (pending)
    return (
      <section className="panel" aria-busy="true">
        <p className="muted">{loading}</p>
      </section>
    );
  if (failed) return <LoadFailed as="section" className="panel" message={error} onRetry={onRetry} />;
  return (
    <section className="panel">
      <p className="muted">
        You have no wallets yet. <Link to="/wallets">Create one on the Wallets page</Link>.
      </p>
    </section>
  );
}
