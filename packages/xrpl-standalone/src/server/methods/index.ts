// The method table: one line per rippled command. Handlers live one area per file; the DEX/AMM
// code adds its own files (book-offers.ts, account-offers.ts, amm-info.ts, ripple-path-find.ts)
// with one line each here.
import type { MethodSpec } from '../context';
import { accountCurrenciesMethod, accountInfoMethod } from './account-info';
import { accountOffersMethod } from './account-offers';
import { ammInfoMethod } from './amm-info';
import { bookOffersMethod } from './book-offers';
import { accountLinesMethod } from './account-lines';
import { accountObjectsMethod } from './account-objects';
import { accountTxMethod } from './account-tx';
import { depositAuthorizedMethod } from './deposit-authorized';
import { featureMethod } from './feature';
import { gatewayBalancesMethod } from './gateway-balances';
import { ledgerClosedMethod, ledgerCurrentMethod, ledgerMethod } from './ledger';
import { ledgerDataMethod } from './ledger-data';
import { ledgerEntryMethod } from './ledger-entry';
import { norippleCheckMethod } from './noripple-check';
import { pathFindMethod } from './path-find';
import { ripplePathFindMethod } from './ripple-path-find';
// Registers the `books` subscription with subscribe/unsubscribe.
import '../books-stream';
import {
  feeMethod,
  ledgerAcceptMethod,
  ledgerClockMethod,
  pingMethod,
  randomMethod,
  serverDefinitionsMethod,
  serverInfoMethod,
  serverStateMethod,
} from './server-info';
import { simulateMethod } from './simulate';
import { signMethod, submitMethod, submitMultisignedMethod } from './submit';
import { subscribeMethod, unsubscribeMethod } from './subscribe';
import { transactionEntryMethod } from './transaction-entry';
import { txMethod } from './tx';

export const methods: Record<string, MethodSpec> = {
  account_currencies: accountCurrenciesMethod,
  account_info: accountInfoMethod,
  account_lines: accountLinesMethod,
  account_objects: accountObjectsMethod,
  account_offers: accountOffersMethod,
  amm_info: ammInfoMethod,
  book_offers: bookOffersMethod,
  account_tx: accountTxMethod,
  deposit_authorized: depositAuthorizedMethod,
  feature: featureMethod,
  fee: feeMethod,
  gateway_balances: gatewayBalancesMethod,
  ledger: ledgerMethod,
  ledger_accept: ledgerAcceptMethod,
  ledger_clock: ledgerClockMethod,
  ledger_closed: ledgerClosedMethod,
  ledger_current: ledgerCurrentMethod,
  ledger_data: ledgerDataMethod,
  ledger_entry: ledgerEntryMethod,
  noripple_check: norippleCheckMethod,
  path_find: pathFindMethod,
  ping: pingMethod,
  random: randomMethod,
  ripple_path_find: ripplePathFindMethod,
  server_definitions: serverDefinitionsMethod,
  server_info: serverInfoMethod,
  server_state: serverStateMethod,
  sign: signMethod,
  simulate: simulateMethod,
  submit: submitMethod,
  submit_multisigned: submitMultisignedMethod,
  subscribe: subscribeMethod,
  transaction_entry: transactionEntryMethod,
  tx: txMethod,
  unsubscribe: unsubscribeMethod,
};
