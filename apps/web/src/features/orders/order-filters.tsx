import { useId, useState } from 'react';
import {
  ORDER_STATUSES,
  TRADE_SIDES,
  type OrderStatus,
  type TradeSide,
  shortAddress,
} from '@ledgerpad/shared';
import { NO_FILTERS, type OrderFilters } from './api';
import { STATUS_LABELS } from './order-status';

export interface WalletOption {
  address: string;
  name: string | null;
}

export const walletLabel = (address: string, name: string | null | undefined) =>
  name ? `${name} (${shortAddress(address)})` : shortAddress(address);

/** The collapsible filter bar: wallet, status, type, date range and 'Clear Filters'. */
export function OrderFiltersPanel({
  filters,
  wallets,
  onChange,
}: {
  filters: OrderFilters;
  wallets: WalletOption[];
  onChange: (filters: OrderFilters) => void;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const active = Object.values(filters).filter(Boolean).length;
  const set = <K extends keyof OrderFilters>(key: K, value: OrderFilters[K]) =>
    onChange({ ...filters, [key]: value });

  return (
    <div className="orders-filters">
      <button
        type="button"
        className="btn-secondary orders-filters-toggle"
        aria-expanded={open}
        aria-controls={`${id}-body`}
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true" className="orders-chevron">
          ▸
        </span>
        Filters{active > 0 ? ` (${active})` : ''}
      </button>
      <div id={`${id}-body`} className="orders-filters-body" hidden={!open}>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-wallet`}>
            Wallet
          </label>
          <select
            id={`${id}-wallet`}
            className="input"
            value={filters.wallet}
            onChange={(e) => set('wallet', e.target.value)}
          >
            <option value="">All wallets</option>
            {wallets.map((w) => (
              <option key={w.address} value={w.address}>
                {walletLabel(w.address, w.name)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-status`}>
            Status
          </label>
          <select
            id={`${id}-status`}
            className="input"
            value={filters.status}
            onChange={(e) => set('status', e.target.value as OrderStatus | '')}
          >
            <option value="">All statuses</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s][0]!.toUpperCase() + STATUS_LABELS[s].slice(1)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-type`}>
            Type
          </label>
          <select
            id={`${id}-type`}
            className="input"
            value={filters.type}
            onChange={(e) => set('type', e.target.value as TradeSide | '')}
          >
            <option value="">Buy and sell</option>
            {TRADE_SIDES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-from`}>
            Date from
          </label>
          <input
            id={`${id}-from`}
            className="input"
            type="date"
            value={filters.from}
            max={filters.to || undefined}
            onChange={(e) => set('from', e.target.value)}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-to`}>
            Date to
          </label>
          <input
            id={`${id}-to`}
            className="input"
            type="date"
            value={filters.to}
            min={filters.from || undefined}
            onChange={(e) => set('to', e.target.value)}
          />
        </div>
        <div className="orders-filters-actions">
          <button
            type="button"
            className="btn-secondary"
            disabled={active === 0}
            onClick={() => onChange(NO_FILTERS)}
          >
            Clear Filters
          </button>
        </div>
      </div>
    </div>
  );
}
