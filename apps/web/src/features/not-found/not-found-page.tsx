import { Link, useLocation } from 'react-router';
import './not-found.css';

/** Any path outside the route table. The server answers such paths with index.html and status 404. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <section className="panel not-found" aria-labelledby="not-found-title">
      <p className="not-found-code" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title">Page not found</h1>
      <p>
        There is no page at <code className="path">{pathname}</code>. The link may be broken, or the page may
        have moved.
      </p>
      <p>
        <Link to="/" className="button-link">
          Back to the token list
        </Link>
      </p>
    </section>
  );
}
