import { userMessage } from '../lib/api';

/**
 * A read that failed, in the app's one form (issue 41: the admin tabs and the dashboard had one
 * each): the sentence, the server's reason under it when `error` is given and it says more, and a
 * Retry button that asks again.
 */
export function LoadFailed({
  message,
  error,
  onRetry,
  className,
  as: Tag = 'div',
}: {
  message: string;
  /** The failed call: its reason is shown under the sentence (lib/api.ts's userMessage rule). */
  error?: unknown;
  onRetry: () => void;
  className?: string;
  /** A page whose whole content failed shows it as its panel (`section`). */
  as?: 'div' | 'section';
}) {
  const reason = error === undefined ? null : userMessage(error);
  return (
    <Tag role="alert" className={className}>
      <p className="form-error">{message}</p>
      {reason && reason !== message && <p className="muted small">{reason}</p>}
      <button type="button" className="btn-secondary" onClick={onRetry}>
        Retry
      </button>
    </Tag>
  );
}
