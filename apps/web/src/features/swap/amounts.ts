import { Decimal, type DecimalValue } from '@ledgerpad/shared';

/**
 * Amounts the user checks against the ledger (balance, expected withdrawal): to 6 decimals rounded
 * down, with thousands grouped, never shortened to K/M. Prices keep 6 significant digits.
 */
export function exactAmount(value: DecimalValue, price = false): string {
  const d = new Decimal(value);
  const text = (
    price && d.lt(1) ? d.toSignificantDigits(6, Decimal.ROUND_DOWN) : d.toDecimalPlaces(6, Decimal.ROUND_DOWN)
  ).toFixed();
  const [int, frac] = text.split('.');
  return `${int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${frac ? `.${frac}` : ''}`;
}
