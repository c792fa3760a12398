import { Decimal } from '@ledgerpad/shared';

// The Liquidity tab's form, as one store (a reducer, like the swap form's in form.ts): every input
// of the tab and the rules that tie them together (spec 001 §4, §5). Changing the deposit mode
// clears both amounts; changing the withdrawal type clears the LP amount and the limit price; the LP
// amount is capped at the balance as it is typed; the fee vote takes only 0 to 1 in steps of 0.001.

export type LiquiditySide = 'base' | 'token';

export interface LiquidityForm {
  view: 'actions' | 'vote';
  action: 'ADD' | 'REMOVE';
  deposit: 'SINGLE' | 'DOUBLE';
  withdraw: 'double' | 'single';
  /** The asset of a single-asset deposit or withdrawal. */
  side: LiquiditySide;
  amountBase: string;
  amountToken: string;
  /** Both assets: the side the user typed last (the other follows the pool's ratio). */
  edited: LiquiditySide;
  amountLp: string;
  /** Single-asset withdrawal: LP tokens per unit of the asset, optional. */
  limitPrice: string;
  /** The proposed trading fee, in percent. */
  fee: string;
}

export const initialLiquidityForm: LiquidityForm = {
  view: 'actions',
  action: 'ADD',
  deposit: 'SINGLE',
  withdraw: 'double',
  side: 'base',
  amountBase: '',
  amountToken: '',
  edited: 'base',
  amountLp: '',
  limitPrice: '',
  fee: '',
};

export type LiquidityAction =
  | { type: 'view'; view: LiquidityForm['view'] }
  | { type: 'action'; action: LiquidityForm['action'] }
  | { type: 'deposit'; deposit: LiquidityForm['deposit'] }
  | { type: 'withdraw'; withdraw: LiquidityForm['withdraw'] }
  | { type: 'side'; side: LiquiditySide }
  /** An amount of one side: `typed` by the user (it becomes the edited side) or computed from the pool. */
  | { type: 'amount'; side: LiquiditySide; value: string; typed: boolean }
  /** The LP amount, capped at `balance` (the wallet's LP tokens). */
  | { type: 'lp'; value: string; balance: string }
  | { type: 'limitPrice'; value: string }
  | { type: 'fee'; value: string }
  /** A deposit went through: its amounts go. */
  | { type: 'added' }
  /** A withdrawal went through: its LP amount and limit price go. */
  | { type: 'removed' };

const positive = (v: string) => /^\d*\.?\d+$/.test(v) && new Decimal(v).gt(0);

export function liquidityReducer(s: LiquidityForm, a: LiquidityAction): LiquidityForm {
  switch (a.type) {
    case 'view':
      return { ...s, view: a.view };
    case 'action':
      return { ...s, action: a.action };
    case 'deposit':
      return { ...s, deposit: a.deposit, amountBase: '', amountToken: '' };
    case 'withdraw':
      return { ...s, withdraw: a.withdraw, limitPrice: '', amountLp: '' };
    case 'side':
      return { ...s, side: a.side };
    case 'amount': {
      const next = a.side === 'base' ? { amountBase: a.value } : { amountToken: a.value };
      return { ...s, ...next, ...(a.typed ? { edited: a.side } : {}) };
    }
    case 'lp':
      return {
        ...s,
        amountLp:
          positive(a.value) && new Decimal(a.value).gt(a.balance)
            ? new Decimal(a.balance).toFixed()
            : a.value,
      };
    case 'limitPrice':
      return { ...s, limitPrice: a.value };
    case 'fee': {
      // Only 0 to 1 (step 0.001): anything else clears the field (spec 001 §5).
      const v = a.value;
      return { ...s, fee: v !== '' && (!/^\d*(\.\d{0,3})?$/.test(v) || new Decimal(v).gt(1)) ? '' : v };
    }
    case 'added':
      return { ...s, amountBase: '', amountToken: '' };
    case 'removed':
      return { ...s, amountLp: '', limitPrice: '' };
  }
}
