import { describe, expect, it } from 'vitest';
import {
  initialSwapForm,
  sideOf,
  swapFormReducer,
  type SwapAction,
  type SwapForm,
} from '../src/features/swap/form';

// The swap screen's form store: the spec's rules between its inputs (001 §4) and issue 25's.

const run = (actions: SwapAction[], from: SwapForm = initialSwapForm()) =>
  actions.reduce(swapFormReducer, from);
const token = { issuer: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe', code: 'TKN', ticker: 'TKN' };

describe('swap form store', () => {
  it('keeps what an amount may hold: a pasted 7th decimal goes, a comma is the point, invalid text stays invalid', () => {
    expect(run([{ type: 'amount', value: '1.1234567' }]).amount).toBe('1.123456');
    expect(run([{ type: 'amount', value: ' 12,5 ' }]).amount).toBe('12.5');
    // Issue 39: never rewritten into another amount ('1e5' used to become '15', '-5' '5').
    expect(run([{ type: 'amount', value: '1e5' }]).amount).toBe('1e5');
    expect(run([{ type: 'amount', value: '-5' }]).amount).toBe('-5');
    expect(run([{ type: 'slippage', value: '0.555' }]).slippage).toBe('0.55');
    expect(run([{ type: 'price', value: '0.0000000000000012345' }]).price).toBe('0.000000000000001');
  });

  it('clears the amount and the price when the tab or the order mode changes (spec 001 §4)', () => {
    const typed = run([
      { type: 'amount', value: '5' },
      { type: 'price', value: '0.1' },
    ]);
    expect(run([{ type: 'tab', tab: 'SELL' }], typed)).toMatchObject({ amount: '', price: '', tab: 'SELL' });
    expect(run([{ type: 'mode', mode: 'limit' }], typed)).toMatchObject({ amount: '', price: '' });
    // Choosing the same tab again changes nothing.
    expect(run([{ type: 'tab', tab: 'BUY' }], typed)).toBe(typed);
  });

  it('drops an armed or accepted high-impact confirmation when anything about the trade changes', () => {
    const armed = run([
      { type: 'token', token },
      { type: 'amount', value: '5' },
      { type: 'armImpact' },
      { type: 'acceptImpact', on: true },
    ]);
    expect(armed).toMatchObject({ impactArmed: true, impactAccepted: true });
    for (const change of [
      { type: 'amount', value: '6' },
      { type: 'slippage', value: '1' },
      { type: 'wallet', address: 'rOther' },
      { type: 'token', token: { ...token, code: 'OTH' } },
      { type: 'tick', address: 'rOther', on: true },
    ] as SwapAction[])
      expect(run([change], armed)).toMatchObject({ impactArmed: false, impactAccepted: false });
  });

  it('takes the saved slippage until the user types one', () => {
    expect(run([{ type: 'savedSlippage', value: '1.25' }]).slippage).toBe('1.25');
    expect(
      run([
        { type: 'slippage', value: '2' },
        { type: 'savedSlippage', value: '1.25' },
      ]).slippage,
    ).toBe('2');
  });

  it('clears the amount once an order went out, and reads the side from the tab or the XRP ⇄ RLUSD direction', () => {
    expect(run([{ type: 'amount', value: '5' }, { type: 'sent' }]).amount).toBe('');
    expect(sideOf(run([{ type: 'tab', tab: 'SELL' }]))).toBe('SELL');
    expect(
      sideOf(
        run([
          { type: 'mode', mode: 'rlusd' },
          { type: 'rlusdDirection', direction: 'RLUSD_XRP' },
        ]),
      ),
    ).toBe('SELL');
  });
});
