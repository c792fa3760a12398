import { shortAddress } from '@ledgerpad/shared';
import { CopyButton } from './copy-button';
import './card-table.css';
import './payments-table.css';

/** One payment the platform made to someone: a reward payout or a referral claim. */
export interface PaymentRow {
  id: number;
  /** ISO time. */
  at: string;
  address: string;
  /** The amount as the page shows it, with its currency. */
  amount: string;
  status: 'pending' | 'paid' | 'failed';
  hash: string | null;
}

const STATUS_WORDS = { pending: 'Paying…', paid: 'Paid', failed: 'Failed — returned' } as const;

/**
 * Payments on the ledger, newest first (issue 37): when, to whom, how much, whether it was paid, and
 * its transaction hash with a copy button. On phones each payment is a card of labelled lines, so
 * nothing needs a sideways scroll.
 */
export function PaymentsTable({
  rows,
  recipientLabel = 'Recipient',
}: {
  rows: PaymentRow[];
  recipientLabel?: string;
}) {
  return (
    <div className="table-scroll">
      <table className="payments-table card-table">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">{recipientLabel}</th>
            <th scope="col" className="num">
              Amount
            </th>
            <th scope="col">Status</th>
            <th scope="col">Transaction</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <tr key={p.id}>
              <td data-label="Time">
                <time dateTime={p.at}>{new Date(p.at).toLocaleString()}</time>
              </td>
              <td data-label={recipientLabel}>
                <span className="address" title={p.address}>
                  {shortAddress(p.address)}
                </span>
              </td>
              <td data-label="Amount" className="num">
                {p.amount}
              </td>
              <td data-label="Status" className={`payment-${p.status}`}>
                {STATUS_WORDS[p.status]}
              </td>
              <td data-label="Transaction">
                {p.hash ? (
                  <span className="payment-hash">
                    <span className="address" title={p.hash}>
                      {p.hash.slice(0, 8)}…{p.hash.slice(-6)}
                    </span>
                    <CopyButton
                      value={p.hash}
                      label="Copy transaction hash"
                      copiedMessage="Hash copied"
                      failedMessage="Failed to copy the hash."
                    />
                  </span>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
