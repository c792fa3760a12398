// Business constants from both specifications' section 9 (and the figures they reference).
// Durations are milliseconds unless the name says otherwise; money is never a float here:
// XRP figures are strings of XRP or bigint drops, percentages are decimal strings.

/** Drops in one XRP. */
export const DROPS_PER_XRP = 1_000_000n;

// Ledger protocol facts the server and the shared arithmetic both need. Flags and time conversion on
// the server come from xrpl.js (AccountSetAsfFlags, TrustSetFlags, rippleTimeToUnixTime, …); these
// are the few facts that code without xrpl.js (this package) reads too. The constants test fails on a
// hand-typed copy of any of them.

/** Seconds between the Unix epoch and the Ripple epoch (2000-01-01T00:00:00Z). */
export const RIPPLE_EPOCH_UNIX_S = 946_684_800;
/** The trust-line limit the platform opens lines with: far above any supply a token here can have. */
export const TRUST_LINE_MAX_LIMIT = '1000000000000000';
/** The ledger's base and owner reserves before the first validated ledger is seen (1 XRP, 0.2 XRP). */
export const DEFAULT_RESERVE_BASE_DROPS = 1_000_000n;
export const DEFAULT_RESERVE_INCREMENT_DROPS = 200_000n;

/** What users read when the XRP Ledger cannot be reached (a 503 they can retry). */
export const LEDGER_UNAVAILABLE_MESSAGE = 'The XRP Ledger is not reachable right now. Please try again.';
/** What users read when the ledger server refused a request (a 502). */
export const LEDGER_REFUSED_MESSAGE = 'The XRP Ledger refused the request. Please try again.';

// --- Token list and live prices (spec 000 §9) ---
export const TOKENS_PER_PAGE = 10;
export const TOKEN_FETCH_LIMIT = 10_000;
export const USER_REQUEST_TIMEOUT_MS = 5_000;
export const SESSION_KEEPALIVE_MS = 5 * 60_000;
export const SOCKET_TOKEN_CACHE_MS = 9 * 60_000;
/** The server issues socket tokens valid a little longer than the client caches them. */
export const SOCKET_TOKEN_TTL_MS = 10 * 60_000;
export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_CAP_MS = 30_000;
export const STATS_REFRESH_MS = 5_000;
export const STATS_FIRST_REFRESH_MS = 100;
export const RATE_LIMIT_RETRY_START_MS = 5_000;
export const RATE_LIMIT_RETRY_CAP_MS = 60_000;
export const TOKEN_PRICE_REFRESH_MS = 10_000;
export const LAST_PRICE_LOOKBACK_S = 300;
export const LAST_PRICE_RESOLUTION = '5';
export const PRICE_CHANGE_INTERVALS = [
  { label: '5m', seconds: 300 },
  { label: '1h', seconds: 3_600 },
  { label: '4h', seconds: 14_400 },
  { label: '1d', seconds: 86_400 },
] as const;
export const LIVE_PRICE_DEBOUNCE_MS = 500;
export const FEATURES_PER_ROW = 5;
export const TOAST_AUTO_CLOSE_MS = 3_000;
export const DROPDOWN_CLOSE_DELAY_MS = 300;
export const TOOLTIP_FADE_MS = 200;
export const CARD_WIDGET_Z_INDEX = { min: 9997, max: 9999 } as const;
export const CARD_WIDGET_DEFAULTS = { themeColor: '1461db', width: '480px', height: '650px' } as const;
export const CARD_WIDGET_HOME = {
  currency: 'XRP',
  network: 'xrpl',
  width: '450px',
  height: '600px',
} as const;
// The one number format (docs/number-format.md; issue 25 replaces the spec's 10-digit prices and
// 2-decimal market caps with what traders read on DEXScreener and Uniswap).
/** Prices and amounts in tables: 4 significant digits. */
export const TABLE_SIGNIFICANT_DIGITS = 4;
/** Below 1, this many zeros after the point or more are written 0.0ₙ (0.0₄1234 = 0.00001234). */
export const PRICE_SUBSCRIPT_MIN_ZEROS = 4;
/** XRP as money: to the drop. */
export const XRP_DECIMALS = 6;
/** Token amounts: up to 15 significant digits (what a ledger amount carries), the full figure. */
export const TOKEN_SIGNIFICANT_DIGITS = 15;
/**
 * Token amounts on screen: at most this many decimals, rounded down (issue 39: '≈ 149,374.478732276
 * NEWC' read as noise); the full figure stays in the tooltip (`formatFull`).
 */
export const TOKEN_DECIMALS = 6;
/** Compact dollars ($8.4K, $1.23M). */
export const USD_COMPACT_SIGNIFICANT_DIGITS = 3;
/** Font classes for long figures: tiny above 12 characters, small above 9. */
export const FIGURE_FONT_THRESHOLDS = { tiny: 12, small: 9 } as const;

// --- Fees (terms; spec 001 §9) ---
export const TOKEN_CREATION_FEE_XRP = '15';
export const TRADING_FEE_PERCENT = '0.75';
/** RLUSD-paired deploys use a fixed hot-wallet reserve of 2 XRP. */
export const RLUSD_PAIR_HOT_WALLET_RESERVE_XRP = '2';
export const DEFAULT_AIRDROP_RESERVE_XRP = '2';
/** The platform owner (user id 1) pays no deployment service fee and cannot be removed as admin. */
export const OWNER_USER_ID = 1;

// --- Swap and liquidity ---
export const DEFAULT_SLIPPAGE_PERCENT = '0.50';
export const AMOUNT_DECIMALS = 6;
export const SLIPPAGE_DECIMALS = 2;
export const MIN_AMOUNT = '0.000001';
/** Buy ALL IN spends 99.2% of the XRP balance. */
export const ALL_IN_FRACTION = '0.992';
/** Removing "100%" of LP tokens withdraws 99.99% of the balance. */
export const LP_FULL_REMOVAL_FRACTION = '0.9999';
export const FEE_VOTE_MIN_PERCENT = '0';
export const FEE_VOTE_MAX_PERCENT = '1';
export const FEE_VOTE_STEP_PERCENT = '0.001';
/** Fee votes are sent as percent × 1000 (rippled's TradingFee units of 1/100,000). */
export const FEE_VOTE_MULTIPLIER = 1000;
export const XRP_PRESETS = [10, 50, 100] as const;
export const PERCENT_PRESETS = [25, 50, 75, 100] as const;

// --- Deploy ---
export const DEPLOY_LOGO_MAX_BYTES = 1024 * 1024;
export const DEPLOY_DESCRIPTION_MAX = 500;
export const TOKEN_NAME_MIN = 2;
export const TOKEN_NAME_MAX = 30;
export const TICKER_MIN = 2;
export const TICKER_MAX = 10;
export const AMM_FEE_MIN_PERCENT = '0';
export const AMM_FEE_MAX_PERCENT = '1';
export const AMM_FEE_STEP_PERCENT = '0.01';
export const DEPLOY_MAX_ATTEMPTS = 5;
export const DEPLOY_LOCK_MS = 60_000;
export const DEPLOY_JOB_TIMEOUT_MS = 5 * 60_000;
export const DEPLOY_POLL_INTERVAL_MS = 5_000;
export const DEPLOY_POLL_DELAY_MS = 3_000;

// --- Listing, admin, airdrops ---
export const LISTING_LOGO_MAX_BYTES = 5 * 1024 * 1024;
export const ADMIN_LOGO_MAX_BYTES = 1024 * 1024;
export const AIRDROP_LOGO_MAX_BYTES = 5 * 1024 * 1024;
export const LOGO_ASPECT_MIN = '0.8';
export const LOGO_ASPECT_MAX = '1.2';
export const LOGO_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const LISTING_DESCRIPTION_MAX = 1000;
export const ADMIN_FEE_OVERRIDE_LIST_CAP = 100;

// --- Order book, positions, orders ---
export const ORDER_BOOK_TOP_N = 10;
export const ORDER_BOOK_MIN_VALUE = '1e-10';
export const MOBILE_BREAKPOINT_PX = 768;
export const POSITIONS_REFRESH_MS = 5_000;
export const ORDERS_STATUS_CHECK_MS = 60_000;
export const ORDERS_PAGE_SIZE = 20;

// --- Claims, status lines, debounces ---
export const CLAIM_SUCCESS_AUTO_CLOSE_MS = 3_000;
export const WALLETS_NOTIFICATION_MS = 3_000;
export const STATUS_FADE_MS = 5_000;
export const STATUS_CLEAR_MS = 6_000;
export const TRADE_FLASH_MS = 500;
export const SEARCH_DEBOUNCE_MS = 300;
export const ESTIMATE_DEBOUNCE_MS = 300;
export const AIRDROP_COUNTDOWN_MS = 60_000;
export const XRPL_STATUS_POLL_MS = 1_000;

// --- Numbers and codes ---
/** Shortening of table amounts and compact dollars: K, M, B and T at 1e3, 1e6, 1e9, 1e12. */
export const NUMBER_SHORTENING = ['K', 'M', 'B', 'T'] as const;
export const MNEMONIC_WORD_COUNTS = [12, 14, 16, 24] as const;
export const RLUSD_CURRENCY_HEX = '524C555344000000000000000000000000000000';
export const RLUSD_TICKER = 'RLUSD';
export const LP_CURRENCY_PREFIX = '03';
/** RLUSD issuers by network (spec: a fixed constant per network). */
export const RLUSD_ISSUERS = {
  testnet: 'rQhWct2fv4Vc4KRjRgMrxa8xPN9Zx9iLKV',
  mainnet: 'rMxCKbEDwqr76QuheSUMdEGf4B9xJ8m5De',
} as const;

// --- Legal ---
export const MIN_AGE = 18;
/**
 * The terms' nine restricted jurisdictions. The spec gives only their number ("list not shown"):
 * these are the places under comprehensive international sanctions programs (US, EU, UK).
 */
export const RESTRICTED_JURISDICTIONS = [
  'Cuba',
  'Iran',
  'North Korea',
  'Syria',
  'Russia',
  'Belarus',
  'the Crimea region of Ukraine',
  'the so-called Donetsk People’s Republic',
  'the so-called Luhansk People’s Republic',
] as const;
export const LEGAL_EFFECTIVE_DATE = 'February 28, 2025';
export const TERMS_LAST_UPDATED = 'April 30, 2025';

// --- Issuer risk ---
/**
 * Addresses no key can sign for (rippled's ACCOUNT_ZERO, ACCOUNT_ONE, and the well-known
 * "NaN" and vanity black holes): a regular key set to one of them, with the master key disabled and
 * no signer list, leaves an account that can never sign again.
 */
export const BLACKHOLE_ADDRESSES = [
  'rrrrrrrrrrrrrrrrrrrrrhoLvTp',
  'rrrrrrrrrrrrrrrrrrrrBZbvji',
  'rrrrrrrrrrrrrrrrrNAMEtxvNvQ',
  'rrrrrrrrrrrrrrrrrrrn5RM1rHd',
] as const;

/**
 * The product's public pages (spec 000 §1, §2): the launch channel the home page invites to, the
 * social page and the support chat the footer links. One place, so a rename is one edit.
 */
export const PUBLIC_LINKS = {
  channel: 'https://t.me/ledgerpad_launches',
  social: 'https://x.com/ledgerpad',
  support: 'https://t.me/ledgerpad_support',
} as const;

// --- Price impact warnings (issue 25: warnings scale with harm) ---
/** Above this price impact (percent) the swap box turns amber. */
export const PRICE_IMPACT_WARN_PERCENT = '5';
/** Above this the button asks for a second, explicit confirmation naming the impact. */
export const PRICE_IMPACT_CONFIRM_PERCENT = '15';
/** Above this the button is disabled unless 'I understand' is ticked. */
export const PRICE_IMPACT_BLOCK_PERCENT = '50';
