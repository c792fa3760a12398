import { classicAddressToXAddress, encodeAccountID } from 'ripple-address-codec';
import { describe, expect, it } from 'vitest';
import {
  classicAddressSchema,
  lineText,
  multiLineText,
  ID_MAX,
  idSchema,
  parseId,
  resolveDestination,
  wholeNumberSchema,
} from '../src/schemas/common';

const address = encodeAccountID(new Uint8Array(20).fill(7));

describe('edge validation helpers', () => {
  it('parses ids strictly', () => {
    expect(parseId('6')).toBe(6);
    expect(parseId(6)).toBe(6);
    // The largest id is the int4 bound (users.id): one more is no id, whichever way it is written.
    expect(parseId('2147483647')).toBe(ID_MAX);
    expect(parseId(ID_MAX)).toBe(2_147_483_647);
    for (const bad of [
      '2147483648',
      2_147_483_648,
      '9223372036854775808',
      1e308,
      '0xf',
      '15e0',
      ' 15',
      '15.0',
      '0x6',
      '6e0',
      '+6',
      '6.0',
      ' 6',
      '06',
      '0',
      '-1',
      '',
      '1'.repeat(17),
      6.5,
      0,
      -3,
      null,
    ]) {
      expect(parseId(bad), String(bad)).toBeUndefined();
    }
    const id = idSchema('tokenId');
    expect(id.safeParse('15').data).toBe(15);
    expect(id.safeParse('0xf').error?.issues[0]?.message).toBe(
      'tokenId must be a whole number from 1 to 2147483647',
    );
    expect(idSchema('userId', 'Enter valid user ID').safeParse('15e0').error?.issues[0]?.message).toBe(
      'Enter valid user ID',
    );
  });

  it('reads whole numbers as written', () => {
    const n = wholeNumberSchema('limit', { min: 0, max: 100 });
    expect(n.safeParse('0').data).toBe(0);
    expect(n.safeParse('10').data).toBe(10);
    expect(n.safeParse(10).data).toBe(10);
    for (const bad of ['010', '00', '+1', '1e1', '0xa', ' 1', '1.0', '', '101', -1, 1.5, true]) {
      expect(n.safeParse(bad).success, String(bad)).toBe(false);
    }
  });

  it('checks the address checksum', () => {
    expect(classicAddressSchema('issuer').safeParse(address).success).toBe(true);
    const typo = address.slice(0, -1) + (address.endsWith('a') ? 'b' : 'a');
    const r = classicAddressSchema('issuer').safeParse(typo);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('issuer must be a valid XRPL address');
  });

  it('resolves X-addresses only for their own network', () => {
    const testX = classicAddressToXAddress(address, 7, true);
    const mainX = classicAddressToXAddress(address, false, false);
    expect(resolveDestination(testX, 'standalone')).toEqual({ address, tag: 7 });
    expect(resolveDestination(testX, 'testnet')).toEqual({ address, tag: 7 });
    expect(resolveDestination(mainX, 'mainnet')).toEqual({ address });
    expect(resolveDestination(testX, 'mainnet')).toHaveProperty('error');
    expect(resolveDestination(mainX, 'testnet')).toHaveProperty('error');
    expect(resolveDestination('rNope', 'testnet')).toHaveProperty('error');
  });

  it('refuses control characters in text', () => {
    expect(lineText('name', 10).safeParse('ok name').success).toBe(true);
    expect(lineText('name', 10).safeParse('a\u0000').success).toBe(false);
    expect(lineText('name', 10).safeParse('a\nb').success).toBe(false);
    expect(multiLineText('memo', 50).safeParse('line 1\nline 2\ttab').success).toBe(true);
    expect(multiLineText('memo', 50).safeParse('bell\u0007').success).toBe(false);
  });
});
