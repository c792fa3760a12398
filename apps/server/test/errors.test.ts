import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/errors';
import { parseInput } from '../src/lib/validation';
import { createTestApp, type TestApp } from './helpers/test-app';

describe('error handler', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ ledger: 'none' });
    // Routes added before the first request, as a feature module would.
    const open = { config: { access: 'public' as const } };
    t.app.get('/api/test/boom', open, async () => {
      throw new Error('password=hunter2 at /srv/secret/path.ts:12');
    });
    t.app.get('/api/test/conflict', open, async () => {
      throw new AppError('CONFLICT', 'Token Already Listed', { issuer: 'rX' });
    });
    t.app.get('/api/test/validate', open, async (request) =>
      parseInput(
        z.object({
          name: z.string().min(2, 'Name must be at least 2 characters'),
          supply: z.coerce.number().positive('Supply must be positive'),
        }),
        request.query,
      ),
    );
    t.app.post(
      '/api/test/schema',
      {
        ...open,
        schema: { body: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } } },
      },
      async () => ({ ok: true }),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('never shows internals in 5xx bodies', async () => {
    const res = await t.app.inject('/api/test/boom');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'internal', message: 'Internal server error' });
    expect(res.body).not.toContain('hunter2');
  });

  it('maps AppError codes to statuses with their details', async () => {
    const res = await t.app.inject('/api/test/conflict');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'conflict', message: 'Token Already Listed', issuer: 'rX' });
  });

  it('lists every invalid field with the schema’s message', async () => {
    const res = await t.app.inject('/api/test/validate?name=x&supply=-1');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'validation',
      message: 'Name must be at least 2 characters',
      fields: [
        { path: 'name', message: 'Name must be at least 2 characters' },
        { path: 'supply', message: 'Supply must be positive' },
      ],
    });
  });

  it('answers Fastify schema failures and malformed JSON as JSON 400s', async () => {
    const schema = await t.app.inject({ method: 'POST', url: '/api/test/schema', payload: {} });
    expect(schema.statusCode).toBe(400);
    expect(schema.json()).toMatchObject({ error: 'validation', fields: [{ path: 'a' }] });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/test/schema',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('bad_request');
  });
});
