// TransactionType -> transactor. One line per transaction type.
import { payment } from './payment';
import type { Transactor } from './types';

export const TRANSACTORS: Record<string, Transactor> = {
  Payment: payment,
};

/** Lets other modules (e.g. DEX/AMM transactors) register their types without editing this map. */
export function registerTransactor(type: string, t: Transactor): void {
  TRANSACTORS[type] = t;
}
