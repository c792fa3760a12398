import { describe, expect, it } from 'vitest';
import type { ResolverOptions } from 'react-hook-form';
import {
  importWalletSchema,
  renameWalletSchema,
  SELF_CUSTODY_MESSAGES,
  vaultPassphraseSchema,
  VAULT_PASSPHRASE_MIN,
  WALLET_MESSAGES,
} from '@ledgerpad/shared';
import { allResolvers, requestResolver, schemaResolver } from '../src/lib/form-resolver';

// The one zod wiring of the web's forms (issue 41): what reaches the fields and the submit handler.

const OPTS = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<never>;
const messages = (errors: object) =>
  Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, (v as { message?: string }).message]));

interface Import {
  seed: string;
  passphrase: string;
  confirm: string;
}
const request = requestResolver<Import>(importWalletSchema, (v) => ({ type: 'seed', seed: v.seed }));
const passphrase = requestResolver<Import>(vaultPassphraseSchema, (v) => ({
  passphrase: v.passphrase,
  confirm: v.confirm,
}));
const both = allResolvers(request, passphrase);
const good = 'x'.repeat(VAULT_PASSPHRASE_MIN);

describe('form resolvers', () => {
  it('requestResolver: the schema checks the request, the handler gets the form values as typed', async () => {
    const bad = await request({ seed: '', passphrase: '', confirm: '' }, undefined, OPTS as never);
    expect(messages(bad.errors)).toEqual({ seed: WALLET_MESSAGES.fillAllFieldsImport });
    expect(bad.values).toEqual({});
    const form = { seed: '  sEdSeed  ', passphrase: '', confirm: '' };
    const ok = await request(form, undefined, OPTS as never);
    expect(ok.errors).toEqual({});
    expect(ok.values).toBe(form);
  });

  it('allResolvers: every check’s problems at once, and the values only when none has any', async () => {
    const bad = await both({ seed: '', passphrase: good, confirm: `${good}!` }, undefined, OPTS as never);
    expect(messages(bad.errors)).toEqual({
      seed: WALLET_MESSAGES.fillAllFieldsImport,
      confirm: SELF_CUSTODY_MESSAGES.passphraseMismatch,
    });
    const short = await both({ seed: 'sEd', passphrase: 'x', confirm: 'x' }, undefined, OPTS as never);
    expect(messages(short.errors)).toEqual({ passphrase: SELF_CUSTODY_MESSAGES.passphraseShort });
    const form = { seed: 'sEd', passphrase: good, confirm: good };
    const ok = await both(form, undefined, OPTS as never);
    expect(ok).toEqual({ values: form, errors: {} });
  });

  it('schemaResolver: the handler gets what the schema makes of the fields', async () => {
    const ok = await schemaResolver(renameWalletSchema)({ name: '  Savings  ' }, undefined, OPTS as never);
    expect(ok.errors).toEqual({});
    expect((ok.values as { name: string }).name).toBe(renameWalletSchema.parse({ name: '  Savings  ' }).name);
    const bad = await schemaResolver(renameWalletSchema)({ name: '' }, undefined, OPTS as never);
    expect(messages(bad.errors)).toEqual({ name: WALLET_MESSAGES.fillAllFieldsImport });
  });
});
