import type { ReactNode } from 'react';

/**
 * An amount field with its presets and what the wallet has of that asset. Input is kept to what an
 * amount may hold by the form store (a pasted 7th decimal is dropped, the rest stays).
 */
export function AmountField({
  id,
  label,
  value,
  onChange,
  presets,
  balance,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  presets?: ReadonlyArray<{ label: string; value: string | null }>;
  /** 'Available: 95.4 XRP' under the field. */
  balance?: ReactNode;
}) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input"
        inputMode="decimal"
        autoComplete="off"
        placeholder="0.0"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {balance && (
        <p className="muted small field-balance" data-testid={`${id}-balance`}>
          {balance}
        </p>
      )}
      {presets && presets.length > 0 && (
        <div className="presets">
          {presets.map((p) => (
            <button
              type="button"
              key={p.label}
              disabled={p.value === null}
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
