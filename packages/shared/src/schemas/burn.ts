import { z } from 'zod';
import { tokenCodeSchema } from './token-code';
import { Decimal } from '../money';
import { classicAddressSchema } from './common';

// Token burner (spec 001 §2 Burner, §3 Burner token, §5 Burn, §7 /api/burn/*): a burn is a Payment
// of the tokens from a holder's wallet back to their issuer, which takes them out of circulation.
// Amounts are decimal strings, never floats (docs/burner.md).

export const BURN_MESSAGES = {
  invalidInput: '❌ Please select a wallet, token, and enter a valid amount.',
  burnFailed: 'Failed to burn tokens.',
  fetchFailed: 'Failed to fetch wallets.',
  walletNotFound: 'Wallet not found.',
  notHeld: 'This wallet holds none of that token.',
  moreThanHeld: 'You cannot burn more than the wallet holds.',
  issuerCannotBurn:
    'The issuer cannot burn its own tokens: burn them from a wallet that holds them (the issuer pays nothing out).',
  lpToken: 'Liquidity pool tokens cannot be burned here: withdraw them from the pool instead.',
  noWallets: 'You have no wallets yet. Create one on the Wallets page.',
  noTokens: 'This wallet holds no tokens to burn.',
} as const;

/** Issued amounts on the ledger carry a 16-digit mantissa; a burn asks for at most 15 digits, exactly. */
const BURN_MAX_SIGNIFICANT_DIGITS = 15;

/** Digits from the first to the last non-zero digit of a plain decimal string ('0.0120' → 2). */
function significantDigits(value: string): number {
  const digits = value.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return digits.length;
}

const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;

/** A burn amount as typed: a plain positive decimal with at most 15 significant digits. */
export function isValidBurnAmount(value: string): boolean {
  const v = value.trim();
  return PLAIN_DECIMAL.test(v) && new Decimal(v).gt(0) && significantDigits(v) <= BURN_MAX_SIGNIFICANT_DIGITS;
}

const required = z
  .string({ message: BURN_MESSAGES.invalidInput })
  .trim()
  .min(1, BURN_MESSAGES.invalidInput)
  .max(200, BURN_MESSAGES.invalidInput);

const burnAmountSchema = z
  .union([z.string(), z.number()], { message: BURN_MESSAGES.invalidInput })
  .transform((v) => String(v).trim())
  .refine(isValidBurnAmount, BURN_MESSAGES.invalidInput);

/** POST /api/burn/burn. `tokenCode` is the ledger code (3 characters or 40 hex) or a ticker. */
export const burnRequestSchema = z.object({
  // Missing: the spec's sentence; present but not an address: which field and why.
  walletAddress: required.pipe(classicAddressSchema('walletAddress')),
  issuerAddress: required.pipe(classicAddressSchema('issuerAddress')),
  tokenCode: tokenCodeSchema('tokenCode', {
    message: BURN_MESSAGES.invalidInput,
    messages: { lp: BURN_MESSAGES.lpToken },
  }),
  amount: burnAmountSchema,
});
export type BurnRequest = z.input<typeof burnRequestSchema>;

const decimal = z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal string');

export const burnTokenSchema = z.object({
  /** The ledger's currency code (3 characters or 40 hex). */
  tokenCode: z.string(),
  issuer: z.string(),
  /** The trust-line balance on the validated ledger, exact. */
  balance: decimal,
  /** The readable ticker (hex codes decoded). */
  ascii: z.string(),
});
export type BurnToken = z.infer<typeof burnTokenSchema>;

export const burnWalletSchema = z.object({
  id: z.number(),
  walletAddress: z.string(),
  /** XRP, decimal string ('0' for a wallet not activated yet). */
  xrpBalance: decimal,
  tokens: z.array(burnTokenSchema),
});
export type BurnWallet = z.infer<typeof burnWalletSchema>;

/** GET /api/burn/wallets/{userId}. */
export const burnWalletsResponseSchema = z.object({ wallets: z.array(burnWalletSchema) });
export type BurnWalletsResponse = z.infer<typeof burnWalletsResponseSchema>;

/** POST /api/burn/burn answer, once the payment to the issuer is validated. */
export const burnResultSchema = z.object({
  status: z.literal('success'),
  /** What left the wallet, exact. */
  burned: decimal,
  /** The token's readable ticker. */
  token: z.string(),
  tokenCode: z.string(),
  issuer: z.string(),
  hash: z.string(),
  /** The issuer's obligations in that currency after the burn (gateway_balances). */
  outstandingSupply: decimal,
});
export type BurnResult = z.infer<typeof burnResultSchema>;

/**
 * The amount for a slider position: percent × balance rounded down to 6 decimals, or the exact
 * balance at 100 percent (so a wallet can be emptied to the last digit).
 */
export function burnAmountForPercent(balance: string, percent: number): string {
  if (!PLAIN_DECIMAL.test(balance)) return '';
  const p = Math.min(100, Math.max(0, Math.round(percent)));
  if (p >= 100) return new Decimal(balance).toFixed();
  if (p <= 0) return '';
  const share = new Decimal(balance).mul(p).div(100).toDecimalPlaces(6, Decimal.ROUND_DOWN);
  return share.toSignificantDigits(BURN_MAX_SIGNIFICANT_DIGITS, Decimal.ROUND_DOWN).toFixed();
}
