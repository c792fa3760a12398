import { AMOUNT_DECIMALS, DEFAULT_SLIPPAGE_PERCENT, SLIPPAGE_DECIMALS } from '@ledgerpad/shared';
import { sanitizeAmount } from '../../lib/amount-input';

// The swap screen's form, as one store (a reducer, as Uniswap's SwapFormScreen and CoW Swap's
// limit-orders module keep theirs): every input of /swap and the rules that tie them together.
// Spec 001 §4: changing tab or order mode clears the amount, the price and the estimates. A new
// amount, token or wallet also drops an armed high-impact confirmation: it named another trade.

export type OrderMode = 'market' | 'limit' | 'rlusd';
export type SwapTab = 'BUY' | 'SELL' | 'LIQUIDITY';

export interface TokenChoice {
  issuer: string;
  /** Ledger currency code (3 characters or 40 hex). */
  code: string;
  /** What people read (the ticker). */
  ticker: string;
}

export interface SwapForm {
  walletAddress: string | null;
  token: TokenChoice | null;
  tab: SwapTab;
  mode: OrderMode;
  /** XRP ⇄ RLUSD: XRP → RLUSD buys RLUSD (BUY), RLUSD → XRP sells it. */
  rlusdDirection: 'XRP_RLUSD' | 'RLUSD_XRP';
  amount: string;
  /** Limit price (quote asset per token). */
  price: string;
  slippage: string;
  /** The user typed a slippage: the saved one no longer replaces it. */
  slippageTouched: boolean;
  multi: boolean;
  ticked: readonly string[];
  randomized: boolean;
  range: { min: string; max: string };
  /**
   * Above 15% impact: the first click opened the confirmation step (a dialog whose confirm button
   * takes only a deliberate click, issue 39); its confirm sends.
   */
  impactArmed: boolean;
  /** Above 50% impact: the user ticked 'I understand'. */
  impactAccepted: boolean;
}

export type SwapAction =
  | { type: 'wallet'; address: string }
  | { type: 'token'; token: TokenChoice | null }
  | { type: 'tab'; tab: SwapTab }
  | { type: 'mode'; mode: OrderMode }
  | { type: 'rlusdDirection'; direction: SwapForm['rlusdDirection'] }
  | { type: 'amount'; value: string }
  | { type: 'price'; value: string }
  | { type: 'slippage'; value: string }
  | { type: 'savedSlippage'; value: string }
  | { type: 'multi'; on: boolean }
  | { type: 'tick'; address: string; on: boolean }
  | { type: 'randomized'; on: boolean }
  | { type: 'range'; min?: string; max?: string }
  | { type: 'armImpact' }
  | { type: 'disarmImpact' }
  | { type: 'acceptImpact'; on: boolean }
  /** The order went out: the amount is cleared so a second click can't repeat it by accident. */
  | { type: 'sent' };

export function initialSwapForm(
  init: { walletAddress?: string | null; token?: TokenChoice | null } = {},
): SwapForm {
  return {
    walletAddress: init.walletAddress ?? null,
    token: init.token ?? null,
    tab: 'BUY',
    mode: 'market',
    rlusdDirection: 'XRP_RLUSD',
    amount: '',
    price: '',
    slippage: DEFAULT_SLIPPAGE_PERCENT,
    slippageTouched: false,
    multi: false,
    ticked: [],
    randomized: false,
    range: { min: '', max: '' },
    impactArmed: false,
    impactAccepted: false,
  };
}

const disarmed = { impactArmed: false, impactAccepted: false } as const;
const cleared = { amount: '', price: '', ...disarmed } as const;

export function swapFormReducer(state: SwapForm, action: SwapAction): SwapForm {
  switch (action.type) {
    case 'wallet':
      return state.walletAddress === action.address
        ? state
        : { ...state, walletAddress: action.address, amount: '', ...disarmed };
    case 'token':
      return { ...state, token: action.token, amount: state.tab === 'SELL' ? '' : state.amount, ...disarmed };
    case 'tab':
      return state.tab === action.tab ? state : { ...state, tab: action.tab, ...cleared };
    case 'mode':
      return state.mode === action.mode ? state : { ...state, mode: action.mode, ...cleared };
    case 'rlusdDirection':
      return { ...state, rlusdDirection: action.direction, ...cleared };
    case 'amount':
      // Typing or pasting keeps what fits (6 decimals): '1.1234567' becomes '1.123456'.
      return { ...state, amount: sanitizeAmount(action.value, AMOUNT_DECIMALS), ...disarmed };
    case 'price':
      return { ...state, price: sanitizeAmount(action.value, 15), ...disarmed };
    case 'slippage':
      return {
        ...state,
        slippage: sanitizeAmount(action.value, SLIPPAGE_DECIMALS),
        slippageTouched: true,
        ...disarmed,
      };
    case 'savedSlippage':
      return state.slippageTouched ? state : { ...state, slippage: action.value };
    case 'multi':
      return { ...state, multi: action.on, ...disarmed };
    case 'tick': {
      const others = state.ticked.filter((a) => a !== action.address);
      return { ...state, ticked: action.on ? [...others, action.address] : others, ...disarmed };
    }
    case 'randomized':
      return { ...state, randomized: action.on };
    case 'range':
      return {
        ...state,
        range: {
          min: action.min === undefined ? state.range.min : sanitizeAmount(action.min, AMOUNT_DECIMALS),
          max: action.max === undefined ? state.range.max : sanitizeAmount(action.max, AMOUNT_DECIMALS),
        },
      };
    case 'armImpact':
      return { ...state, impactArmed: true };
    case 'disarmImpact':
      return { ...state, impactArmed: false };
    case 'acceptImpact':
      return { ...state, impactAccepted: action.on };
    case 'sent':
      return { ...state, amount: '', range: { min: '', max: '' }, ...disarmed };
  }
}

/** Market and XRP ⇄ RLUSD randomized buys: each ticked wallet its own amount. */
export const isRandomized = (f: SwapForm): boolean =>
  f.multi && f.randomized && f.mode === 'market' && f.tab === 'BUY';

/** The trade's side: the tab, or the XRP ⇄ RLUSD direction. */
export const sideOf = (f: SwapForm): 'BUY' | 'SELL' =>
  f.mode === 'rlusd'
    ? f.rlusdDirection === 'XRP_RLUSD'
      ? 'BUY'
      : 'SELL'
    : f.tab === 'SELL'
      ? 'SELL'
      : 'BUY';
