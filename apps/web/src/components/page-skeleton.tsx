/** What a page shows while its code or the session is loading: a quiet block, never a flash of a prompt. */
export function PageSkeleton() {
  return (
    <div className="panel skeleton" role="status" aria-busy="true" aria-label="Loading">
      <div className="skeleton-line skeleton-title" />
      <div className="skeleton-line" />
      <div className="skeleton-line skeleton-short" />
    </div>
  );
}
