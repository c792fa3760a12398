import { describe, expect, it } from 'vitest';
import {
  initialLiquidityForm,
  liquidityReducer,
  type LiquidityAction,
  type LiquidityForm,
} from '../src/features/swap/liquidity-form';

// The Liquidity tab's store (issue 41: on a reducer like the swap form's): the rules that tie its
// inputs together, without rendering the tab.

const run = (...actions: LiquidityAction[]): LiquidityForm =>
  actions.reduce(liquidityReducer, initialLiquidityForm);

describe('the liquidity form', () => {
  it('a typed amount becomes the edited side; a computed one leaves it', () => {
    const s = run(
      { type: 'deposit', deposit: 'DOUBLE' },
      { type: 'amount', side: 'token', value: '5', typed: true },
      { type: 'amount', side: 'base', value: '2.5', typed: false },
    );
    expect(s).toMatchObject({ edited: 'token', amountToken: '5', amountBase: '2.5' });
  });

  it('changing the deposit mode clears both amounts; a deposit done clears them too', () => {
    const typed = run(
      { type: 'amount', side: 'base', value: '1', typed: false },
      { type: 'amount', side: 'token', value: '2', typed: false },
    );
    expect(liquidityReducer(typed, { type: 'deposit', deposit: 'DOUBLE' })).toMatchObject({
      deposit: 'DOUBLE',
      amountBase: '',
      amountToken: '',
    });
    expect(liquidityReducer(typed, { type: 'added' })).toMatchObject({ amountBase: '', amountToken: '' });
  });

  it('changing the withdrawal type clears the LP amount and the limit price (spec 001 §4)', () => {
    const s = run(
      { type: 'lp', value: '3', balance: '10' },
      { type: 'limitPrice', value: '0.5' },
      { type: 'withdraw', withdraw: 'single' },
    );
    expect(s).toMatchObject({ withdraw: 'single', amountLp: '', limitPrice: '' });
    expect(run({ type: 'lp', value: '3', balance: '10' }, { type: 'removed' }).amountLp).toBe('');
  });

  it('caps the LP amount at the balance as it is typed', () => {
    expect(run({ type: 'lp', value: '12.5', balance: '10.25' }).amountLp).toBe('10.25');
    expect(run({ type: 'lp', value: '9.9', balance: '10.25' }).amountLp).toBe('9.9');
    expect(run({ type: 'lp', value: '1.', balance: '10' }).amountLp).toBe('1.');
  });

  it('takes a fee vote of 0 to 1 in steps of 0.001 only; anything else clears it (spec 001 §5)', () => {
    expect(run({ type: 'fee', value: '0.125' }).fee).toBe('0.125');
    expect(run({ type: 'fee', value: '1' }).fee).toBe('1');
    expect(run({ type: 'fee', value: '1.001' }).fee).toBe('');
    expect(run({ type: 'fee', value: '0.0001' }).fee).toBe('');
    expect(run({ type: 'fee', value: '' }).fee).toBe('');
  });
});
