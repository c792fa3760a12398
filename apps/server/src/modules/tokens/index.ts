// What the rest of the server uses of the tokens module: the registry (deploy and listing write
// rows through it, the dashboard reads them) and the API view of a row.
export {
  TokenRegistry,
  toTokenView,
  type LedgerFactsProvider,
  type NewToken,
  type TokenRow,
} from './service';
export type { LedgerFacts } from './identity-rank';
export { protectedIdentities, type IdentityRefusal } from './doors';
export { tokenLogosInUse } from './logos';
export { tokenPageHead } from './page-head';
export { registerTokens } from './routes';
