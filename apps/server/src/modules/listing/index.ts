// What the rest of the server may use of the listing module: the ledger reads it is built on.
export { ListingService, type IssuerState } from './service';
export { registerListing } from './routes';
