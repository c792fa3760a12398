import { userMessage } from '../../lib/api';

/** A failed read: the message (and the server's reason, when it gave one) and a Retry button. */
export function LoadError({
  message,
  error,
  onRetry,
}: {
  message: string;
  error: unknown;
  onRetry: () => void;
}) {
  const reason = userMessage(error);
  return (
    <div role="alert" className="error-inline">
      <p className="form-error">{message}</p>
      {reason && reason !== message && <p className="muted small">{reason}</p>}
      <button type="button" className="btn-secondary" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
