import { describe, expect, it } from 'vitest';
import { authMethodsSchema } from '@ledgerpad/shared';
import { ConfigError, loadConfig } from '../../src/config';
import { createTestApp } from '../helpers/test-app';

// The card on-ramp's publishable key reaches browsers through the public sign-in methods call;
// without it card purchase is off and the CSP frames no provider page.

describe('card on-ramp configuration', () => {
  it('is off by default: onramp null, no provider in the CSP', async () => {
    const t = await createTestApp({ ledger: 'none' });
    try {
      const res = await t.app.inject({ url: '/api/auth/methods' });
      expect(res.statusCode).toBe(200);
      expect(authMethodsSchema.parse(res.json()).onramp).toBeNull();
      // The web app shows faucet buttons from this (standalone and testnet only).
      expect(res.json().network).toBe('standalone');
      expect(String(res.headers['content-security-policy'])).not.toContain('transak');
    } finally {
      await t.close();
    }
  });

  it('publishes the key and environment, and lets the provider page be framed', async () => {
    const t = await createTestApp({
      ledger: 'none',
      env: { ONRAMP_API_KEY: 'pk_test_0123456789', ONRAMP_ENVIRONMENT: 'PRODUCTION' },
    });
    try {
      const res = await t.app.inject({ url: '/api/auth/methods' });
      expect(authMethodsSchema.parse(res.json()).onramp).toEqual({
        apiKey: 'pk_test_0123456789',
        environment: 'PRODUCTION',
      });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toMatch(/frame-src https:\/\/global\.transak\.com(;|$)/);
      expect(csp).toMatch(/script-src 'self'(;|$)/);
    } finally {
      await t.close();
    }
  });

  it('defaults to STAGING and refuses a malformed key or environment', () => {
    expect(loadConfig({ ONRAMP_API_KEY: 'pk_test_0123456789' }).ONRAMP_ENVIRONMENT).toBe('STAGING');
    expect(loadConfig({ ONRAMP_API_KEY: '' }).ONRAMP_API_KEY).toBeUndefined();
    expect(() => loadConfig({ ONRAMP_API_KEY: 'has spaces in it' })).toThrow(ConfigError);
    expect(() => loadConfig({ ONRAMP_ENVIRONMENT: 'LIVE' })).toThrow(/ONRAMP_ENVIRONMENT/);
  });
});
