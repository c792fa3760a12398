/**
 * Previous / "Page n of m" / Next under a paged list (the admin's audit log, the orders page).
 * `busy` holds both buttons while a page loads.
 */
export function Pagination({
  label,
  current,
  pages,
  busy = false,
  onPage,
}: {
  /** The nav's accessible name ("Audit pages"). */
  label: string;
  current: number;
  pages: number;
  busy?: boolean;
  onPage: (page: number) => void;
}) {
  return (
    <nav className="pagination" aria-label={label}>
      <button
        type="button"
        className="btn-secondary"
        disabled={current <= 1 || busy}
        onClick={() => onPage(current - 1)}
      >
        Previous
      </button>
      <span aria-live="polite">
        Page {current} of {pages}
      </span>
      <button
        type="button"
        className="btn-secondary"
        disabled={current >= pages || busy}
        onClick={() => onPage(current + 1)}
      >
        Next
      </button>
    </nav>
  );
}
