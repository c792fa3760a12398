import { useState } from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AmountField } from '../src/components/amount-field';
import { amountTextError, sanitizeAmount } from '../src/lib/amount-input';

// The one amount field (issue 39): what was typed stays; text that is not an amount reads invalid
// instead of being rewritten into another amount ('-5' → '5', '1e3' → '13' before).

afterEach(() => cleanup());

function Field({ decimals, onSubmit }: { decimals?: number; onSubmit?: () => void }) {
  const [value, setValue] = useState('');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit?.();
      }}
    >
      <AmountField
        id="amt"
        label="Amount (XRP)"
        value={value}
        onChange={setValue}
        decimals={decimals}
        presets={[
          { label: '10', value: '10' },
          { label: 'ALL IN', value: null },
        ]}
        action={<button type="button">Max</button>}
      />
    </form>
  );
}

const input = () => screen.getByLabelText('Amount (XRP)') as HTMLInputElement;
const type = (value: string) => fireEvent.change(input(), { target: { value } });

describe('sanitizeAmount', () => {
  it('keeps invalid text as typed; normalises only the comma and the decimals of a well-formed amount', () => {
    expect(sanitizeAmount('-5', 6)).toBe('-5');
    expect(sanitizeAmount('1e3', 6)).toBe('1e3');
    expect(sanitizeAmount('1.2.3', 6)).toBe('1.2.3');
    expect(sanitizeAmount(' 12,5 ', 6)).toBe('12.5');
    expect(sanitizeAmount('1.1234567', 6)).toBe('1.123456');
    expect(sanitizeAmount('7.9', 0)).toBe('7');
    expect(sanitizeAmount('.', 6)).toBe('.');
    expect(amountTextError('-5')).toMatch(/^Not an amount/);
    expect(amountTextError('')).toBeNull();
    expect(amountTextError('0.5')).toBeNull();
  });
});

describe('AmountField', () => {
  it("keeps '-5' and '1e3' as typed, marked invalid with the reason; a valid amount clears it", () => {
    render(<Field decimals={6} />);
    for (const bad of ['-5', '1e3', 'abc', '+2']) {
      type(bad);
      expect(input().value).toBe(bad);
      expect(input().getAttribute('aria-invalid')).toBe('true');
      const reason = screen.getByTestId('amt-text-error');
      expect(reason.textContent).toBe(
        'Not an amount: use digits and one decimal point (no sign, letters or exponent).',
      );
      expect(input().getAttribute('aria-describedby')).toBe('amt-text-error');
    }
    type('1.1234567');
    expect(input().value).toBe('1.123456');
    expect(input().getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByTestId('amt-text-error')).toBeNull();
  });

  it('fills from a preset, disables one without a value, keeps its side button, and Enter does not submit', () => {
    const onSubmit = vi.fn();
    render(<Field onSubmit={onSubmit} />);
    fireEvent.click(screen.getByRole('button', { name: '10' }));
    expect(input().value).toBe('10');
    expect((screen.getByRole('button', { name: 'ALL IN' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Max' })).toBeTruthy();
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
