// Amendments, as rippled has them: each ledger carries a set of enabled amendments (the genesis
// `Amendments` object), and transaction code asks "is X enabled?" where behaviour differs. Like
// rippled's CurrentTransactionRulesGuard, the engine installs a ledger's rules for the duration of
// one synchronous apply (`withRules`); code deep in the AMM or payment engine then reads
// `rulesEnabled(name)` without threading a parameter through every function. Nothing stays set
// between applies, so two ledgers in one process can run different rules.
import { sha512HalfHex } from './hash';
import { amendmentsKey } from './keylets';
import type { StateReader } from './state/apply-view';
import { withMantissaScale, type MantissaScale } from './number';

/**
 * Today's mainnet set, restricted to amendments whose behaviour this engine follows (or that
 * change nothing it implements). Mainnet has not enabled SingleAssetVault or LendingProtocol, so
 * `Number` keeps its 16-digit mantissa by default.
 */
export const DEFAULT_AMENDMENTS: readonly string[] = Object.freeze([
  'AMM',
  // Batch (XLS-56) as rippled 3.4.1 runs it, on mainnet since 2026-10-09.
  'BatchV1_1',
  // Checks and CheckCashMakesTrustLine are retired in rippled 3.2 (always on, listed for `feature`).
  'CheckCashMakesTrustLine',
  'Checks',
  'Clawback',
  'DeepFreeze',
  'DeletableAccounts',
  'DepositAuth',
  'DepositPreauth',
  'DisallowIncoming',
  'Escrow',
  'Flow',
  'FlowCross',
  // Permission delegation (XLS-75), on mainnet since 2026-10-08: DelegateSet and the Delegate field.
  'PermissionDelegationV1_1',
  'RequireFullyCanonicalSig',
  'TicketBatch',
  // Token escrow (XLS-85), on mainnet since 2026-02-12: escrows of trust-line tokens.
  'TokenEscrow',
  'XRPFees',
  'fix1578',
  'fix1623',
  'fixAMMOverflowOffer',
  'fixAMMv1_1',
  'fixAMMv1_2',
  'fixAMMv1_3',
  'fixBatchV1_2',
  'fixCheckThreading',
  'fixMasterKeyAsRegularKey',
  'fixPreviousTxnID',
  'fixTrustLinesToSelf',
  'fixUniversalNumber',
]);

/** Amendments that switch rippled's `Number` to its 19-digit mantissa (rippled's Rules.cpp). */
const LARGE_NUMBER_AMENDMENTS = ['SingleAssetVault', 'LendingProtocol'];

/** The amendment ID: SHA-512Half of the name in ASCII. */
export function amendmentId(name: string): string {
  return sha512HalfHex(Buffer.from(name, 'ascii')).toUpperCase();
}

/**
 * Amendment IDs (uppercase) to names for every amendment any ledger in this process was configured
 * with, so `feature` can name them. Append-only: a dictionary, not behaviour.
 */
const KNOWN_NAMES = new Map<string, string>();

/** The live ID → name dictionary (see KNOWN_NAMES). */
export function knownAmendmentNames(): ReadonlyMap<string, string> {
  return KNOWN_NAMES;
}

const idMemo = new Map<string, string>();

function idOf(name: string): string {
  let id = idMemo.get(name);
  if (id === undefined) {
    id = amendmentId(name);
    idMemo.set(name, id);
  }
  return id;
}

/** An immutable set of enabled amendments (rippled's `Rules`), kept by ID as the ledger holds them. */
export class Rules {
  readonly numberScale: MantissaScale;
  private readonly set: ReadonlySet<string>;

  /** From names; or, with `ids`, from an `Amendments` object's ID list (names then unused). */
  constructor(names: Iterable<string>, ids?: readonly string[]) {
    const set = new Set<string>();
    if (ids) {
      for (const id of ids) set.add(id.toUpperCase());
    } else {
      for (const name of names) {
        const id = idOf(name);
        KNOWN_NAMES.set(id, name);
        set.add(id);
      }
    }
    this.set = set;
    this.numberScale = LARGE_NUMBER_AMENDMENTS.some((n) => set.has(idOf(n))) ? 'large' : 'small';
  }

  /** The rules of an `Amendments` ledger object's ID list. */
  static fromIds(ids: readonly string[]): Rules {
    return new Rules([], ids);
  }

  enabled(name: string): boolean {
    return this.set.has(idOf(name));
  }

  /** The enabled amendment IDs, sorted (the genesis `Amendments` list). */
  ids(): string[] {
    return [...this.set].sort();
  }
}

export const DEFAULT_RULES = new Rules(DEFAULT_AMENDMENTS);
const NO_RULES = new Rules([]);

let current: Rules = DEFAULT_RULES;

/** The rules in effect: the applying ledger's inside `withRules`, mainnet's otherwise. */
export function currentRules(): Rules {
  return current;
}

export function rulesEnabled(name: string): boolean {
  return current.enabled(name);
}

/** Runs `fn` (synchronously) under `rules` and their Number scale, then restores the previous. */
export function withRules<T>(rules: Rules, fn: () => T): T {
  const previous = current;
  current = rules;
  try {
    return withMantissaScale(rules.numberScale, fn);
  } finally {
    current = previous;
  }
}

const rulesCache = new WeakMap<readonly string[], Rules>();

const ledgerRulesCache = new WeakMap<object, Rules>();

/**
 * The rules of the ledger `view` belongs to, from its `Amendments` object (as rippled builds Rules
 * from the ledger), cached per stored ID list. A ledger without the object has no amendments.
 */
export function ledgerRules(view: StateReader): Rules {
  const list = view.read(amendmentsKey())?.Amendments;
  if (!Array.isArray(list)) return NO_RULES;
  let rules = ledgerRulesCache.get(list);
  if (!rules) {
    rules = Rules.fromIds(list as string[]);
    ledgerRulesCache.set(list, rules);
  }
  return rules;
}

/** The Rules for a config's amendment list (cached per list, so the hot path builds none). */
export function rulesFor(amendments: readonly string[] | undefined): Rules {
  if (!amendments) return DEFAULT_RULES;
  let rules = rulesCache.get(amendments);
  if (!rules) {
    rules = new Rules(amendments);
    rulesCache.set(amendments, rules);
  }
  return rules;
}

/**
 * Parses an amendment list given on the command line: a comma-separated list of names, or the
 * text of a file with one name per line (`#` comments allowed). A rippled config file is accepted
 * too: then only the names under its `[features]` stanza are read.
 */
export function parseAmendmentList(text: string): string[] {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => l.trim() === '[features]');
  let body = lines;
  if (start >= 0) {
    const rest = lines.slice(start + 1);
    const end = rest.findIndex((l) => /^\s*\[/.test(l));
    body = end >= 0 ? rest.slice(0, end) : rest;
  }
  const names: string[] = [];
  for (const line of body) {
    for (const part of line.replace(/#.*/, '').split(',')) {
      const name = part.trim();
      if (name === '') continue;
      if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`invalid amendment name: ${name}`);
      names.push(name);
    }
  }
  return names;
}
