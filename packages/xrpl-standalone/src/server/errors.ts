// rippled's RPC error table (src/libxrpl/protocol/ErrorCodes.cpp): token, numeric code, default message.
// Only the errors this server can produce are listed; names and numbers are rippled's so clients
// that switch on `error` or `error_code` behave the same as against a real node.
const ERRORS = {
  unknown: [-1, 'An unknown error code.'],
  badSyntax: [1, 'Syntax error.'],
  badSecret: [43, 'Secret does not match account.'],
  badSeed: [44, 'Disallowed seed.'],
  jsonInvalid: [2, 'JSON is invalid.'],
  forbidden: [3, 'Bad credentials.'],
  wrongNetwork: [4, 'Unexpected network.'],
  noPermission: [6, "You don't have permission for this command."],
  noEvents: [7, 'Current transport does not support events.'],
  tooBusy: [9, 'The server is too busy to help you now.'],
  noClosed: [15, 'Closed ledger is unavailable.'],
  noCurrent: [16, 'Current ledger is unavailable.'],
  notSynced: [18, 'Not synced to the network.'],
  actNotFound: [19, 'Account not found.'],
  lgrNotFound: [21, 'ledgerNotFound'],
  lgrNotValidated: [22, 'Ledger not validated.'],
  txnNotFound: [29, 'Transaction not found.'],
  transactionNotFound: [29, 'Transaction not found.'],
  notYetImplemented: [74, 'Not yet implemented.'],
  invalidHotWallet: [30, 'Invalid hotwallet.'],
  invalidParams: [31, 'Invalid parameters.'],
  unknownCmd: [32, 'Unknown method.'],
  noPathRequest: [33, 'No pathfinding request in progress.'],
  actMalformed: [35, 'Account malformed.'],
  badFeature: [40, 'Feature unknown or invalid.'],
  badIssuer: [41, 'Issuer account malformed.'],
  badMarket: [42, 'No such market.'],
  dstActMalformed: [48, 'Destination account is malformed.'],
  dstActMissing: [49, 'Destination account not provided.'],
  dstActNotFound: [50, 'Destination account not found.'],
  dstAmtMalformed: [51, 'Destination amount/currency/issuer is malformed.'],
  dstAmtMissing: [52, 'Destination amount/currency/issuer is missing.'],
  lgrIdxsInvalid: [57, 'Ledger indexes invalid.'],
  lgrIdxMalformed: [58, 'Ledger index malformed.'],
  srcActMalformed: [65, 'Source account is malformed.'],
  srcActMissing: [66, 'Source account not provided.'],
  srcActNotFound: [67, 'Source account not found.'],
  srcCurMalformed: [69, 'Source currency is malformed.'],
  srcIsrMalformed: [70, 'Source issuer is malformed.'],
  malformedStream: [71, 'Stream malformed.'],
  internal: [73, 'Internal error.'],
  notImpl: [74, 'Not implemented.'],
  notSupported: [75, 'Operation not supported.'],
  excessiveLgrRange: [78, 'Ledger range exceeds 1000.'],
  invalidLgrRange: [79, 'Ledger range is invalid.'],
  objectNotFound: [92, 'The requested object was not found.'],
  issueMalformed: [93, 'Issue is malformed.'],
  transactionSigned: [96, 'Transaction should not be signed.'],
  entryNotFound: [98, 'Entry not found.'],
  unexpectedLedgerType: [99, 'Unexpected ledger type.'],
  // Not in rippled's RPC table: transaction-level errors reported through the RPC envelope.
  invalidTransaction: [-1, 'Invalid transaction.'],
  highFee: [11, 'Current transaction fee exceeds your limit.'],
  notStandAlone: [-1, 'Operation valid in debug mode only.'],
} as const satisfies Record<string, readonly [number, string]>;

export type RpcErrorName = keyof typeof ERRORS;

/** Thrown by method handlers; the dispatcher turns it into rippled's error envelope. */
export class RpcError extends Error {
  readonly error: string;
  readonly errorCode: number;
  /** Extra fields rippled puts beside the error (e.g. `account` for actNotFound in some handlers). */
  readonly extra: Record<string, unknown>;

  constructor(name: RpcErrorName, message?: string, extra: Record<string, unknown> = {}) {
    const [code, defaultMessage] = ERRORS[name];
    super(message ?? defaultMessage);
    this.error = name;
    this.errorCode = code;
    this.extra = extra;
  }
}

/** rippled's wording for missing/invalid fields (RPC::missing_field_error, expected_field_error). */
export function missingField(name: string): RpcError {
  return new RpcError('invalidParams', `Missing field '${name}'.`);
}

export function invalidField(name: string, expected?: string): RpcError {
  return new RpcError(
    'invalidParams',
    expected ? `Invalid field '${name}', not ${expected}.` : `Invalid field '${name}'.`,
  );
}
