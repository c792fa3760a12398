// Intents for self-custody wallets (docs/self-custody.md): what a module needs to prepare an
// action for a browser key or a wallet app and to finish it once signed.
export { IntentService, stepKey, type IntentFinisher, type PrepareIntent } from './service';
export type { IntentRow } from './schema';
export { requireNeed, type FundsNeed } from './needs';
