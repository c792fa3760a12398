import { describe, expect, it } from 'vitest';
import {
  aspectOk,
  checkLogoDimensions,
  checkLogoFile,
  LOGO_MAX_BYTES,
  UPLOAD_MESSAGES,
  uploadFieldsSchema,
} from '@ledgerpad/shared';
import { sniffImageFormat } from '../../src/modules/uploads/images';
import { storedImageName } from '../../src/modules/uploads';

// The pure rules both the web forms and the server apply (packages/shared/src/schemas/uploads.ts).

const MB = 1024 * 1024;

describe('checkLogoFile', () => {
  it('checks the declared type first, then emptiness and the purpose’s size', () => {
    expect(checkLogoFile({ type: 'image/gif', size: 10 }, 'listing')).toBe(UPLOAD_MESSAGES.type);
    expect(checkLogoFile({ type: 'image/svg+xml', size: 10 }, 'deploy')).toBe(UPLOAD_MESSAGES.type);
    expect(checkLogoFile({ type: 'image/png', size: 0 }, 'deploy')).toBe(UPLOAD_MESSAGES.empty);
    expect(checkLogoFile({ type: 'image/png', size: MB }, 'deploy')).toBeUndefined();
    expect(checkLogoFile({ type: 'image/png', size: MB + 1 }, 'deploy')).toBe(
      'Image size must be less than 1MB.',
    );
    expect(checkLogoFile({ type: 'image/jpeg', size: MB + 1 }, 'admin')).toBe('Max size 1MB.');
    expect(checkLogoFile({ type: 'image/webp', size: 5 * MB }, 'listing')).toBeUndefined();
    expect(checkLogoFile({ type: 'image/webp', size: 5 * MB + 1 }, 'listing')).toBe(
      'Image size must be less than 5MB.',
    );
    expect(checkLogoFile({ type: 'IMAGE/PNG', size: 2 * MB }, 'airdrop')).toBeUndefined();
    expect(LOGO_MAX_BYTES).toBe(5 * MB);
  });
});

describe('aspectOk and checkLogoDimensions', () => {
  it('accepts width ÷ height from 0.8 to 1.2 inclusive, exactly', () => {
    expect(aspectOk(100, 100)).toBe(true);
    expect(aspectOk(120, 100)).toBe(true);
    expect(aspectOk(80, 100)).toBe(true);
    expect(aspectOk(121, 100)).toBe(false);
    expect(aspectOk(79, 100)).toBe(false);
    expect(aspectOk(1200001, 1000000)).toBe(false);
    expect(aspectOk(0, 100)).toBe(false);
    expect(aspectOk(100, 0)).toBe(false);
    expect(aspectOk(Number.NaN, 100)).toBe(false);
  });

  it('refuses more than 4096 px on a side before the aspect, with each form’s aspect message', () => {
    expect(checkLogoDimensions(4096, 4096, 'deploy')).toBeUndefined();
    expect(checkLogoDimensions(4097, 4097, 'deploy')).toBe(UPLOAD_MESSAGES.dimensions);
    expect(checkLogoDimensions(300, 100, 'listing')).toBe('Image must be square or near-square.');
    expect(checkLogoDimensions(300, 100, 'admin')).toBe('Image must be square-ish.');
  });
});

describe('uploadFieldsSchema', () => {
  it('defaults the purpose to deploy and refuses unknown ones', () => {
    expect(uploadFieldsSchema.parse({})).toEqual({ purpose: 'deploy' });
    expect(uploadFieldsSchema.parse({ purpose: 'airdrop', csrf_token: 'x' })).toEqual({ purpose: 'airdrop' });
    const bad = uploadFieldsSchema.safeParse({ purpose: 'ADMIN' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe(UPLOAD_MESSAGES.purpose);
  });
});

describe('sniffImageFormat', () => {
  it('knows JPEG, PNG and WebP by their magic bytes only', () => {
    expect(sniffImageFormat(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImageFormat(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('png');
    expect(sniffImageFormat(Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 ', 'latin1'))).toBe('webp');
    expect(sniffImageFormat(Buffer.from('RIFF\u0000\u0000\u0000\u0000WAVEfmt ', 'latin1'))).toBeUndefined();
    expect(sniffImageFormat(Buffer.from('GIF89a'))).toBeUndefined();
    expect(sniffImageFormat(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBeUndefined();
    expect(sniffImageFormat(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('storedImageName', () => {
  it('maps only served content-hash URLs to stored names', () => {
    const name = `${'a'.repeat(64)}.png`;
    expect(storedImageName(`/cdn/logos/${name}`)).toBe(name);
    expect(storedImageName(`/images/${name}`)).toBe(name);
    expect(storedImageName('/cdn/logos/../../etc/passwd')).toBeUndefined();
    expect(storedImageName(`https://evil.example/cdn/logos/${name}`)).toBeUndefined();
  });
});
