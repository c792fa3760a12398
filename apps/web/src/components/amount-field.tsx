import type { KeyboardEvent, ReactNode } from 'react';
import { amountTextError, sanitizeAmount } from '../lib/amount-input';

/**
 * The app's one amount field (issue 39): swap, liquidity and the burner, their limit prices too. It never rewrites what was
 * typed into something else: text that is not an amount stays as typed and the field says so
 * (aria-invalid, the reason under it), so '-5' is refused rather than sent as 5 (lib/amount-input.ts).
 * With `decimals`, a well-formed amount keeps what fits. Enter does not submit the form from here
 * (a trade is sent from its button, after its disclosure).
 */
export function AmountField({
  id,
  label,
  value,
  onChange,
  decimals,
  presets,
  presetsLabel,
  balance,
  action,
  disabled,
  invalid,
  describedBy,
  placeholder = '0.0',
  children,
}: {
  id: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** Decimals the asset has: a longer well-formed amount keeps what fits. */
  decimals?: number;
  presets?: ReadonlyArray<{ label: string; value: string | null }>;
  presetsLabel?: string;
  /** 'Available: 95.4 XRP' under the field. */
  balance?: ReactNode;
  /** A button beside the input (Max). */
  action?: ReactNode;
  disabled?: boolean;
  /** The caller's own reason the amount is wrong (over the balance, …), shown elsewhere. */
  invalid?: boolean;
  describedBy?: string;
  /** What the empty field reads ('No limit' where the amount is optional). */
  placeholder?: string;
  /** A note that belongs to the field (the market price under a limit price), under the input. */
  children?: ReactNode;
}) {
  const textError = amountTextError(value);
  const errorId = `${id}-text-error`;
  const input = (
    <input
      id={id}
      className="input"
      inputMode="decimal"
      autoComplete="off"
      placeholder={placeholder}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(sanitizeAmount(e.target.value, decimals))}
      onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => e.key === 'Enter' && e.preventDefault()}
      aria-invalid={textError !== null || invalid || undefined}
      aria-describedby={[textError ? errorId : '', describedBy ?? ''].filter(Boolean).join(' ') || undefined}
    />
  );
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {action ? (
        <div className="input-with-max">
          {input}
          {action}
        </div>
      ) : (
        input
      )}
      {textError && (
        <p id={errorId} className="form-error small amount-text-error" data-testid={`${id}-text-error`}>
          {textError}
        </p>
      )}
      {children}
      {balance && (
        <p className="muted small field-balance" data-testid={`${id}-balance`}>
          {balance}
        </p>
      )}
      {presets && presets.length > 0 && (
        <div className="presets" role={presetsLabel ? 'group' : undefined} aria-label={presetsLabel}>
          {presets.map((p) => (
            <button
              type="button"
              key={p.label}
              disabled={p.value === null || disabled}
              onClick={() => p.value !== null && onChange(p.value)}
            >
              {p.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
