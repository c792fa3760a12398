// What the rest of the server uses of the tokens module: the registry (deploy and listing write
// rows through it, the dashboard reads them) and the API view of a row.
export { TokenRegistry, toTokenView, verifiedIdentities, type NewToken, type TokenRow } from './service';
export { tokenLogosInUse } from './logos';
export { registerTokens } from './routes';
