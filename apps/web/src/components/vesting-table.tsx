import type { ReactNode } from 'react';
import './card-table.css';
import './vesting-table.css';

// The dev allocation's tranches (docs/vesting.md) as one table: the deploy form previews the
// schedule it will lock (tranche, amount, unlock time) and the dashboard shows the locked one with
// each tranche's status and its Release button. Cells carry data-label for the phone layout.

export interface TrancheRow {
  index: number;
  /** The amount as the page writes it, with its ticker. */
  amount: ReactNode;
  /** When it unlocks, ISO 8601 (UTC). */
  unlockAt: string;
  /** The dashboard's status column; leave both out for the preview. */
  status?: { key: string; text: string };
  action?: ReactNode;
}

/** `2027-01-01 00:00 UTC`: minutes are the ledger's precision that matters to a reader. */
export const unlockText = (iso: string): string => iso.slice(0, 16).replace('T', ' ') + ' UTC';

export function VestingTable({ rows, withStatus = false }: { rows: TrancheRow[]; withStatus?: boolean }) {
  return (
    <table className="vesting-table card-table">
      <thead>
        <tr>
          <th>Tranche</th>
          <th>Amount</th>
          <th>Unlocks</th>
          {withStatus && (
            <>
              <th>Status</th>
              <th aria-label="Action" />
            </>
          )}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.index} data-status={r.status?.key}>
            <td data-label="Tranche">{r.index}</td>
            <td data-label="Amount">{r.amount}</td>
            <td data-label="Unlocks">{unlockText(r.unlockAt)}</td>
            {withStatus && (
              <>
                <td data-label="Status">
                  {r.status && (
                    <span className={`vesting-status vesting-${r.status.key}`}>{r.status.text}</span>
                  )}
                </td>
                <td className="vesting-action">{r.action}</td>
              </>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
