import { describe, expect, it } from 'vitest';
import { ApiError, hasStatus, isMissingRoute, userMessage } from '../src/lib/api';

// The one rule for what the user reads when a call failed (lib/api.ts): the server's sentence for a
// 4xx or a 502/503, the caller's fallback for everything else.

const fromServer = (status: number, message: string) => new ApiError(status, message, { message });

describe('userMessage', () => {
  it("shows the server's sentence for a 4xx and for the ledger's 502/503", () => {
    for (const status of [400, 403, 404, 409, 422, 429, 502, 503])
      expect(userMessage(fromServer(status, 'Amount is too small.'), 'Failed.')).toBe('Amount is too small.');
  });

  it('falls back for 5xx internals, the network, unknown routes and text the server did not write', () => {
    expect(userMessage(fromServer(500, 'Internal Server Error'), 'Failed.')).toBe('Failed.');
    expect(userMessage(new ApiError(0, 'Network Error'), 'Failed.')).toBe('Failed.');
    expect(userMessage(fromServer(404, 'No API route GET /api/nope'), 'Failed.')).toBe('Failed.');
    // A proxy's page: the status text, not a body of ours.
    expect(userMessage(new ApiError(502, 'Bad Gateway'), 'Failed.')).toBe('Failed.');
    expect(userMessage(new Error('boom'), 'Failed.')).toBe('Failed.');
  });

  it('without a fallback answers the reason or undefined; with lead, the fallback leads', () => {
    expect(userMessage(fromServer(400, 'Too small.'))).toBe('Too small.');
    expect(userMessage(fromServer(500, 'x'))).toBeUndefined();
    expect(userMessage(fromServer(400, 'Too small.'), 'Save failed', { lead: true })).toBe(
      'Save failed: Too small.',
    );
    expect(userMessage(fromServer(400, 'Save failed: no.'), 'Save failed', { lead: true })).toBe(
      'Save failed: no.',
    );
    expect(userMessage(fromServer(500, 'x'), 'Save failed', { lead: true })).toBe('Save failed');
  });

  it('classifies without reading words: hasStatus, isMissingRoute', () => {
    expect(hasStatus(fromServer(429, 'Slow down.'), 429)).toBe(true);
    expect(hasStatus(new Error('x'), 429)).toBe(false);
    expect(isMissingRoute(fromServer(404, 'No API route POST /api/faucet'))).toBe(true);
    expect(isMissingRoute(fromServer(404, 'Wallet not found'))).toBe(false);
  });
});
