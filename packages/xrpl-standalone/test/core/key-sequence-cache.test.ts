import { describe, expect, it } from 'vitest';
import { KeySequenceCache } from '../../src/core/key-sequence-cache';

describe('KeySequenceCache', () => {
  it('computes once per key sequence, in key order, and honours cacheable', () => {
    const cache = new KeySequenceCache<string>();
    let computed = 0;
    const join = (o: object): string => {
      computed += 1;
      return Object.keys(o).join(',');
    };
    expect(cache.get({ a: 1, b: 2 }, join)).toBe('a,b');
    expect(cache.get({ a: 3, b: 4 }, join)).toBe('a,b');
    expect(computed).toBe(1);
    expect(cache.get({ b: 1, a: 2 }, join)).toBe('b,a');
    expect(cache.get({ a: 1 }, join)).toBe('a');
    expect(computed).toBe(3);
    const never = (): boolean => false;
    cache.get({ x: 1 }, join, never);
    cache.get({ x: 2 }, join, never);
    expect(computed).toBe(5);
  });

  it('starts over past its size limit instead of growing without bound', () => {
    const cache = new KeySequenceCache<number>(3);
    const size = (o: object): number => Object.keys(o).length;
    for (let i = 0; i < 10; i += 1) expect(cache.get({ [`k${i}`]: 1, [`j${i}`]: 2 }, size)).toBe(2);
    expect((cache as unknown as { nodes: number }).nodes).toBeLessThanOrEqual(4);
  });
});
