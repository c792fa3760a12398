import { useState } from 'react';
import { Pagination } from '../../components/pagination';
import { useAudit } from './api';
import { LoadFailed } from '../../components/load-failed';

/**
 * A before/after value: `{ value }` shows as the value, `{ value, …details }` as the value with its
 * details (a refund's destination and method), anything else as compact JSON.
 */
export function auditValue(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'object' && !Array.isArray(v) && 'value' in v) {
    const { value, ...details } = v as { value: unknown } & Record<string, unknown>;
    const rest = Object.entries(details).map(
      ([k, d]) => `${k} ${typeof d === 'string' ? d : JSON.stringify(d)}`,
    );
    return rest.length ? `${auditValue(value)} (${rest.join(', ')})` : auditValue(value);
  }
  if (typeof v === 'string') return v === '' ? '(empty)' : v;
  return JSON.stringify(v);
}

/** The audit trail, newest first, 50 a page. */
export function AuditTab() {
  const [page, setPage] = useState(1);
  const audit = useAudit(page);
  const pages = Math.max(1, audit.data?.pageCount ?? 1);
  const current = audit.data?.page ?? page;

  return (
    <section className="panel" aria-labelledby="admin-audit-heading">
      <h2 id="admin-audit-heading">Audit trail</h2>
      {audit.isPending ? (
        <p className="muted" aria-busy="true">
          Loading the audit trail…
        </p>
      ) : audit.isError ? (
        <LoadFailed message="Failed to load the audit trail." onRetry={() => void audit.refetch()} />
      ) : audit.data.entries.length === 0 ? (
        <p className="empty-state">Nothing has been changed yet.</p>
      ) : (
        <>
          <div className="table-scroll admin-table-wrap">
            <table className="admin-table admin-audit-table" aria-label="Audit trail">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">Target</th>
                  <th scope="col">Before → After</th>
                </tr>
              </thead>
              <tbody>
                {audit.data.entries.map((e) => (
                  <tr key={e.id}>
                    <td>
                      <time dateTime={e.created_at}>{new Date(e.created_at).toLocaleString()}</time>
                    </td>
                    <td>Admin #{e.admin_user_id}</td>
                    <td>{e.action}</td>
                    <td>{e.target ?? '—'}</td>
                    <td className="admin-change">
                      <span>{auditValue(e.before)}</span> → <span>{auditValue(e.after)}</span>
                      {e.tx_hash && <div className="hash muted">tx {e.tx_hash}</div>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination
            label="Audit pages"
            current={current}
            pages={pages}
            busy={audit.isFetching}
            onPage={setPage}
          />
        </>
      )}
    </section>
  );
}
