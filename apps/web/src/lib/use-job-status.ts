import { useEffect, useRef, useState } from 'react';
import type { JobStatusView } from '@ledgerpad/shared';
import { apiGet } from './api';
import { onSocketEvent } from './live-socket';

// A background job's progress (deploy, airdrop creation): from the live socket's `jobUpdated` at
// once, with polling of GET /api/job-status/{id} as the fallback, until the job completes or fails,
// or `timeoutMs` passes (then `timedOut`). The one way screens follow a job.

export interface JobStatusOptions {
  /** The first poll (spec 001 §9 for deploys: 3 s). */
  firstPollMs: number;
  /** Then every (deploys: 5 s). */
  pollMs: number;
  /** Gives up after (deploys: 5 minutes). */
  timeoutMs: number;
}

const isFinal = (s: JobStatusView | undefined) => s?.status === 'completed' || s?.status === 'failed';

export function useJobStatus<R = unknown>(
  jobId: string | undefined,
  { firstPollMs, pollMs, timeoutMs }: JobStatusOptions,
): { status: JobStatusView<R> | undefined; timedOut: boolean } {
  const [status, setStatus] = useState<JobStatusView<R>>();
  const [timedOut, setTimedOut] = useState(false);
  const final = useRef(false);
  useEffect(() => {
    if (!jobId) return;
    final.current = false;
    setStatus(undefined);
    setTimedOut(false);
    let stopped = false;
    const accept = (s: JobStatusView<R>) => {
      if (final.current || stopped) return;
      final.current = isFinal(s);
      setStatus(s);
    };
    const off = onSocketEvent('jobUpdated', (data) => {
      if (data.jobId === jobId) accept(data as JobStatusView<R>);
    });
    const deadline = Date.now() + timeoutMs;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      if (stopped || final.current) return;
      try {
        accept(await apiGet<JobStatusView<R>>(`/api/job-status/${encodeURIComponent(jobId)}`));
      } catch {
        // A failed poll is retried on the next tick; the socket may still deliver.
      }
      if (stopped || final.current) return;
      if (Date.now() >= deadline) {
        setTimedOut(true);
        return;
      }
      timer = setTimeout(() => void poll(), pollMs);
    };
    timer = setTimeout(() => void poll(), firstPollMs);
    return () => {
      stopped = true;
      off();
      clearTimeout(timer);
    };
  }, [jobId, firstPollMs, pollMs, timeoutMs]);
  return { status, timedOut };
}
