// A persistent (structurally shared) radix-16 tree with rippled's SHAMap hashing. Each closed
// ledger keeps its own root, sharing untouched subtrees with its parent, so closes only rehash
// the paths that changed and old ledgers stay readable without copying the state.
import { HASH_PREFIX, sha512HalfOf } from '../hash';

export interface Leaf<V> {
  readonly leaf: true;
  readonly key: string;
  readonly value: V;
  hash?: Buffer;
}

export interface Inner<V> {
  readonly leaf: false;
  children: Array<Node<V> | undefined>;
  edit: number;
  hash?: Buffer;
}

export type Node<V> = Leaf<V> | Inner<V>;

const ZERO_HASH = Buffer.alloc(32);
/** An inner node's preimage: the prefix and 16 child hashes (zero for empty branches), refilled per node. */
const INNER = Buffer.alloc(4 + 16 * 32);
INNER.writeUInt32BE(HASH_PREFIX.innerNode, 0);
let editCounter = 0;

function nibble(key: string, depth: number): number {
  const c = key.charCodeAt(depth);
  return c <= 57 ? c - 48 : (c | 32) - 87;
}

export class ShaMap<V> {
  readonly root: Inner<V>;
  private readonly leafHasher: (key: string, value: V) => Buffer;

  constructor(leafHasher: (key: string, value: V) => Buffer, root?: Inner<V>) {
    this.leafHasher = leafHasher;
    this.root = root ?? { leaf: false, children: new Array(16), edit: -1 };
  }

  get(key: string): V | undefined {
    let node: Node<V> | undefined = this.root;
    let depth = 0;
    while (node && !node.leaf) {
      node = node.children[nibble(key, depth++)];
    }
    return node && node.key === key ? node.value : undefined;
  }

  /** A new map with the given changes (null deletes); this map is left untouched. */
  withChanges(changes: Iterable<[string, V | null]>): ShaMap<V> {
    const edit = ++editCounter;
    let root = this.own(this.root, edit);
    for (const [key, value] of changes) {
      if (value === null) root = (this.remove(root, key, 0, edit) as Inner<V> | undefined) ?? root;
      else root = this.insert(root, { leaf: true, key, value }, 0, edit) as Inner<V>;
    }
    return new ShaMap(this.leafHasher, root);
  }

  private own(node: Inner<V>, edit: number): Inner<V> {
    if (node.edit === edit) {
      node.hash = undefined;
      return node;
    }
    return { leaf: false, children: node.children.slice(), edit };
  }

  private insert(node: Inner<V>, leaf: Leaf<V>, depth: number, edit: number): Inner<V> {
    const n = this.own(node, edit);
    const i = nibble(leaf.key, depth);
    const child = n.children[i];
    if (!child) n.children[i] = leaf;
    else if (child.leaf) {
      if (child.key === leaf.key) n.children[i] = leaf;
      else n.children[i] = this.split(child, leaf, depth + 1, edit);
    } else n.children[i] = this.insert(child, leaf, depth + 1, edit);
    return n;
  }

  private split(a: Leaf<V>, b: Leaf<V>, depth: number, edit: number): Inner<V> {
    const n: Inner<V> = { leaf: false, children: new Array(16), edit };
    const ia = nibble(a.key, depth);
    const ib = nibble(b.key, depth);
    if (ia === ib) n.children[ia] = this.split(a, b, depth + 1, edit);
    else {
      n.children[ia] = a;
      n.children[ib] = b;
    }
    return n;
  }

  /** Returns the replacement for `node`: an inner node, a pulled-up leaf, or undefined when empty. */
  private remove(node: Inner<V>, key: string, depth: number, edit: number): Node<V> | undefined {
    const i = nibble(key, depth);
    const child = node.children[i];
    if (!child) return node;
    let replacement: Node<V> | undefined;
    if (child.leaf) {
      if (child.key !== key) return node;
      replacement = undefined;
    } else {
      replacement = this.remove(child, key, depth + 1, edit);
      if (replacement === child) return node;
    }
    const n = this.own(node, edit);
    n.children[i] = replacement;
    if (depth === 0) return n;
    // rippled keeps every leaf at the shallowest depth where it is unique: collapse lone leaves.
    let count = 0;
    let only: Node<V> | undefined;
    for (const c of n.children) {
      if (c) {
        count++;
        only = c;
      }
    }
    if (count === 0) return undefined;
    if (count === 1 && only?.leaf) return only;
    return n;
  }

  hash(): Buffer {
    return this.nodeHash(this.root, true);
  }

  hashHex(): string {
    return this.hash().toString('hex').toUpperCase();
  }

  private nodeHash(node: Node<V>, isRoot = false): Buffer {
    if (node.hash) return node.hash;
    if (node.leaf) {
      node.hash = this.leafHasher(node.key, node.value);
      return node.hash;
    }
    // Children first: hashing them reuses INNER (and other scratch buffers) before it is filled.
    const children = node.children;
    let empty = true;
    for (let i = 0; i < 16; i++) {
      const c = children[i];
      if (c) {
        empty = false;
        if (!c.hash) this.nodeHash(c);
      }
    }
    if (empty && isRoot) {
      node.hash = ZERO_HASH;
      return ZERO_HASH;
    }
    for (let i = 0; i < 16; i++) {
      const c = children[i];
      const at = 4 + i * 32;
      if (c) INNER.set(c.hash as Buffer, at);
      else INNER.fill(0, at, at + 32);
    }
    node.hash = sha512HalfOf(INNER, INNER.length);
    return node.hash;
  }

  /** Leaves in ascending key order, strictly after `after` when given. */
  *entries(after?: string): Generator<[string, V]> {
    yield* this.walk(this.root, 0, after?.toUpperCase());
  }

  private *walk(node: Inner<V>, depth: number, after: string | undefined): Generator<[string, V]> {
    const start = after === undefined ? 0 : nibble(after, depth);
    for (let i = start; i < 16; i++) {
      const c = node.children[i];
      if (!c) continue;
      const bounded = after !== undefined && i === start;
      if (c.leaf) {
        if (!bounded || c.key > (after as string)) yield [c.key, c.value];
      } else yield* this.walk(c, depth + 1, bounded ? after : undefined);
    }
  }

  get size(): number {
    let n = 0;
    const count = (node: Inner<V>): void => {
      for (const c of node.children) {
        if (!c) continue;
        if (c.leaf) n++;
        else count(c);
      }
    };
    count(this.root);
    return n;
  }
}
