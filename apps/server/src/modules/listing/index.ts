// What the rest of the server may use of the listing module: the ledger reads it is built on.
export { BLACKHOLE_KEYS, currencyHex, ListingService, type IssuerState } from './service';
