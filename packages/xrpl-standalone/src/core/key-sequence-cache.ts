// A cache keyed by an object's key sequence (its keys in their own order). Ledger entries,
// transactions and metadata come in few shapes, and what the serializer and the metadata builder
// derive from a shape (field order, metadata subsets) is the same for every object of it. The
// sequence is looked up in a trie walked key by key: no sort and no signature string per object.

interface TrieNode<T> {
  next: Map<string, TrieNode<T>>;
  value?: T;
}

function always(): boolean {
  return true;
}

export class KeySequenceCache<T> {
  private root: TrieNode<T> = { next: new Map() };
  private nodes = 0;

  /** `limit` bounds the trie: past it (hostile or endless shapes) it starts over. */
  constructor(private readonly limit = 20_000) {}

  /**
   * The value for `obj`'s key sequence, computed by `compute` on first sight and kept when
   * `cacheable` says so (pass module-level functions: this runs per object on hot paths).
   */
  get<O extends object>(
    obj: O,
    compute: (obj: O) => T,
    cacheable: (value: T, obj: O) => boolean = always,
  ): T {
    let node = this.root;
    for (const k in obj) {
      let next = node.next.get(k);
      if (next === undefined) {
        if (this.nodes > this.limit) {
          this.root = { next: new Map() };
          this.nodes = 0;
          return compute(obj);
        }
        next = { next: new Map() };
        node.next.set(k, next);
        this.nodes += 1;
      }
      node = next;
    }
    if (node.value !== undefined) return node.value;
    const value = compute(obj);
    if (cacheable(value, obj)) node.value = value;
    return value;
  }
}
