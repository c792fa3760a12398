import { useXrplStatus } from './api';

/** The ledger connection as a small pill, polled every second (spec §4). */
export function XrplStatus() {
  const { data: connected, isPending } = useXrplStatus();
  const state = isPending ? 'checking' : connected ? 'connected' : 'disconnected';
  const label = {
    checking: 'Checking XRPL…',
    connected: 'XRPL connected',
    disconnected: 'XRPL disconnected',
  }[state];
  return (
    <p className={`status-pill ${state}`} role="status" aria-live="polite">
      <span className="status-dot" aria-hidden="true" />
      {label}
    </p>
  );
}
