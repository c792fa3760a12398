import { shortAddress } from './format';

// Every ledger result a user can meet, as one sentence a trader understands (docs/money.md
// "Explained"). The server answers failures with this sentence as `message` and the ledger's code as
// `result`; the web shows the same sentence for codes it meets itself. One table, used everywhere.

const SENTENCES: Record<string, string> = {
  // Paths, swaps and offers
  tecPATH_PARTIAL:
    'The ledger could not deliver the amount asked for (in a trade: the price moved beyond your slippage tolerance). Nothing was moved; only the network fee was paid.',
  tecPATH_DRY:
    'There is no liquidity for this trade right now: no pool or order can fill it. Nothing was traded (only the network fee was paid).',
  tecKILLED:
    'The order could not be filled at your price right away, so it was cancelled. Nothing was traded (only the network fee was paid).',
  tecEXPIRED: 'The order’s expiry time had already passed, so it was not placed.',
  tecUNFUNDED_OFFER:
    'The wallet does not hold what this order offers to pay, so the order was not placed (only the network fee was paid).',
  tecUNFUNDED_PAYMENT:
    'The wallet does not hold enough to make this payment after its reserve. Nothing was sent (only the network fee was paid).',
  tecUNFUNDED_AMM:
    'The wallet does not hold enough of the assets to deposit into the pool. Nothing was deposited (only the network fee was paid).',
  tecUNFUNDED_ADD:
    'The wallet does not hold enough to add this. Nothing changed (only the network fee was paid).',
  tecUNFUNDED: 'The wallet does not hold enough for this. Nothing changed (only the network fee was paid).',
  tecINSUFFICIENT_FUNDS:
    'The wallet does not hold enough for this. Nothing changed (only the network fee was paid).',
  tecINSUFFICIENT_PAYMENT:
    'The amount is less than this requires. Nothing changed (only the network fee was paid).',
  tecPRECISION_LOSS:
    'The amount cannot be represented exactly on the XRP Ledger: use fewer significant digits. Nothing changed.',
  // AMM pools
  tecAMM_FAILED:
    'The pool refused this: the result would be worse than your limit, or the amount is too small for the pool. Nothing changed (only the network fee was paid).',
  tecAMM_BALANCE:
    'The pool cannot do this without emptying one of its sides or leaving it unbalanced: choose a smaller amount. Nothing changed.',
  tecAMM_EMPTY: 'The pool is empty: nobody can trade, vote or bid until someone deposits both assets again.',
  tecAMM_NOT_EMPTY: 'The pool still holds assets, so it cannot be created again or deleted.',
  tecAMM_INVALID_TOKENS:
    'That LP token amount does not work for this pool: more than the wallet holds, or too little to withdraw anything.',
  tecAMM_ACCOUNT: 'This is not allowed on a pool’s own account.',
  temBAD_AMM_TOKENS: 'That LP token amount is not valid for this pool.',
  terNO_AMM: 'There is no liquidity pool for this pair on the XRP Ledger.',
  // Trust lines and issuers
  tecNO_LINE: 'The wallet has no trust line for this token: add the trust line first.',
  terNO_LINE: 'The wallet has no trust line for this token: add the trust line first.',
  tecNO_LINE_REDUNDANT:
    'There is no trust line to remove: it does not exist or is already back to its default.',
  tecNO_LINE_INSUF_RESERVE:
    'The wallet does not hold enough XRP above its reserve for the reserve a new trust line locks.',
  tecINSUF_RESERVE_LINE:
    'The wallet does not hold enough XRP above its reserve for the reserve a new trust line locks.',
  tecINSUF_RESERVE_OFFER:
    'The wallet does not hold enough XRP above its reserve for the reserve a resting order locks.',
  tecINSUFFICIENT_RESERVE: 'The wallet does not hold enough XRP above its reserve for this.',
  tecNO_AUTH:
    'The token’s issuer has not authorized this wallet’s trust line, so it cannot hold this token yet.',
  terNO_AUTH:
    'The token’s issuer has not authorized this wallet’s trust line, so it cannot hold this token yet.',
  tecFROZEN: 'This token is frozen (by its issuer) for this wallet or globally, so it cannot move.',
  tecNO_ISSUER: 'The token’s issuer account does not exist on the XRP Ledger.',
  terNO_RIPPLE: 'The token cannot pass through this route: its issuer does not allow rippling.',
  tefNO_AUTH_REQUIRED: 'This token does not require authorization, so there is nothing to authorize.',
  // Accounts and destinations
  tecNO_DST: 'The destination account does not exist on the XRP Ledger yet.',
  tecNO_DST_INSUF_XRP:
    'The destination account is not activated yet: the first payment to it must be at least the base reserve in XRP.',
  tecDST_TAG_NEEDED: 'The destination requires a destination tag.',
  tecNO_TARGET: 'The account this refers to does not exist on the XRP Ledger.',
  tecNO_ENTRY: 'What this refers to no longer exists on the XRP Ledger (it may already be gone).',
  tecDUPLICATE: 'This already exists on the XRP Ledger.',
  tecOWNERS: 'The account still owns trust lines or orders, so it cannot be removed yet.',
  tecHAS_OBLIGATIONS: 'The account has issued tokens that are still held, so it cannot be removed.',
  tecTOO_SOON:
    'Too soon: an account can be removed only 256 ledgers after its last transaction. Try again in a few minutes.',
  tecDIR_FULL: 'The account owns too many ledger objects for this.',
  terNO_ACCOUNT: 'The wallet is not activated on the XRP Ledger yet: send it some XRP first.',
  terINSUF_FEE_B: 'The wallet cannot pay the network fee.',
  terNO_DELEGATE_PERMISSION:
    'This wallet has not granted Ledgerpad this permission (or revoked it): nothing was sent.',
  // Permissions and keys
  tecNO_PERMISSION: 'The XRP Ledger does not allow this account to do that.',
  tecNEED_MASTER_KEY: 'Only the wallet’s master key can do this.',
  tecNO_ALTERNATIVE_KEY: 'This would leave the account without any key that can sign.',
  tecNO_REGULAR_KEY: 'The account has no regular key to use.',
  tefMASTER_DISABLED:
    'This wallet’s master key is disabled (it was blackholed or handed to another key), so Ledgerpad can no longer sign for it.',
  tefBAD_AUTH: 'The key Ledgerpad holds is no longer allowed to sign for this wallet.',
  tefBAD_AUTH_MASTER: 'The key Ledgerpad holds is no longer allowed to sign for this wallet.',
  // Sequence and timing
  tefPAST_SEQ:
    'The wallet was used elsewhere at the same moment, so this transaction could not apply. Nothing was sent.',
  tefALREADY: 'This transaction was already submitted.',
  tefMAX_LEDGER: 'The transaction did not make it into a ledger in time. Nothing was sent: please try again.',
  expired: 'The transaction did not make it into a ledger in time. Nothing was sent: please try again.',
  // A Batch's inner transaction (issue 36): the Batch applied, this one did not.
  'rolled-back':
    'It was rolled back with the rest of its all-or-nothing batch: nothing moved and no platform fee was charged, only the network fee.',
  'not-applied': 'Its batch did not apply it. Nothing was sent.',
  terPRE_SEQ: 'An earlier transaction of this wallet has not reached the ledger yet; this one waits for it.',
  terQUEUED: 'The network queued the transaction; it applies in one of the next ledgers.',
  telINSUF_FEE_P: 'The network is busy and asks for a higher fee right now. Please try again in a moment.',
  telCAN_NOT_QUEUE: 'The network is busy and could not queue the transaction. Please try again in a moment.',
  // Malformed requests (refused before anything applies)
  temBAD_AMOUNT: 'The amount is not valid on the XRP Ledger.',
  temBAD_CURRENCY: 'That is not a valid currency code on the XRP Ledger.',
  temBAD_ISSUER: 'That is not a valid token issuer.',
  temBAD_LIMIT: 'That trust line limit is not valid.',
  temBAD_OFFER: 'That order is not valid (a zero amount, or it pays and receives the same asset).',
  temBAD_EXPIRATION: 'That expiry is not valid.',
  temDST_IS_SRC: 'A wallet cannot send to itself.',
  temREDUNDANT: 'This would change nothing.',
  temDISABLED: 'This feature is not enabled on this XRP Ledger network.',
  temINVALID_FLAG: 'The XRP Ledger does not accept this option here.',
  temMALFORMED: 'The XRP Ledger refused the transaction as malformed.',
};

/** The sentence for codes nobody wrote one for, by class (tec: applied and failed; tem: never valid…). */
function byClass(code: string): string {
  if (code.startsWith('tecUNFUNDED')) return SENTENCES.tecUNFUNDED!;
  if (code.startsWith('tecINSUF_RESERVE')) return SENTENCES.tecINSUFFICIENT_RESERVE!;
  if (code.startsWith('tec'))
    return `The XRP Ledger refused this (${code}); nothing changed except the network fee.`;
  if (code.startsWith('tem')) return `The XRP Ledger refused this as invalid (${code}); nothing was sent.`;
  if (code.startsWith('tef')) return `The XRP Ledger could not apply this (${code}); nothing was sent.`;
  if (code.startsWith('tel') || code.startsWith('ter'))
    return `The XRP Ledger could not take this right now (${code}). Please try again in a moment.`;
  return `The XRP Ledger answered ${code}.`;
}

/** One sentence a trader understands for a ledger result code (tec…, tef…, tem…, ter…, tel…, expired). */
export function ledgerResultMessage(code: string): string {
  return SENTENCES[code] ?? byClass(code);
}

/** The codes with a sentence of their own (tests walk them). */
export const EXPLAINED_LEDGER_RESULTS: readonly string[] = Object.keys(SENTENCES);

/** Who an address is to the request that named it: the word its 'does not exist' sentence uses. */
export type AccountRole = 'issuer' | 'account' | 'recipient' | 'holder' | 'destination';

/**
 * An address the user gave (or chose) that has no account on the ledger: their mistake, a 400
 * naming it (shortened, as the screens show addresses), never the 502 of a ledger that refused.
 */
export function missingAccountMessage(role: AccountRole, address: string): string {
  return `The ${role} ${shortAddress(address)} does not exist on the XRP Ledger.`;
}
