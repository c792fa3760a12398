// Owner-directory conveniences on top of the directory primitives.
import type { LedgerEntry } from '../contract';
import { ownerDirKey } from '../keylets';
import type { StateReader } from './apply-view';
import { readU64 } from './directory';

/** rippled dirIsEmpty: no root, or a root with no entries and no further pages. */
export function ownerDirIsEmpty(view: StateReader, owner: string): boolean {
  const root: LedgerEntry | undefined = view.read(ownerDirKey(owner));
  if (!root) return true;
  if ((root.Indexes as string[]).length > 0) return false;
  return readU64(root, 'IndexNext') === 0n;
}
