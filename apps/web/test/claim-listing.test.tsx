import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TokenView } from '@ledgerpad/shared';
import { ClaimListing } from '../src/features/list-token/claim-listing';
import { stubFetch, withProviders } from './support';

// /list-token?claim={issuer} for someone who already controls the listing (the update form): the
// form starts from the listing as it stands, and sending it unchanged keeps the logo (issue 39:
// it started empty, and a claim without a new upload wiped the logo).

const ISSUER = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
const LOGO = `/cdn/logos/${'a'.repeat(64)}.webp`;
const TOKEN = {
  id: 41,
  name: 'Harbor Light',
  ticker: 'HRBR',
  currency: 'HRBR',
  issuer_address: ISSUER,
  description: 'A light for the harbor.',
  logoUrl: LOGO,
  twitterLink: 'https://x.com/hrbr',
  telegramLink: null,
  websiteLink: 'https://hrbr.example',
  links: { Twitter: 'https://x.com/hrbr', Telegram: '', Website: 'https://hrbr.example' },
  verified: true,
  verified_by: 'claim',
  lookalike_of: null,
  metadata_by: 'issuer',
} as unknown as TokenView;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('claim / update a listing', () => {
  it('starts from the listing’s current details and keeps its logo when sent unchanged', async () => {
    const sent: unknown[] = [];
    stubFetch((path, body) => {
      if (path === `/api/tokens/issuer/${ISSUER}/tokens`) return { body: [TOKEN] };
      if (path === `/api/listing/control?token_id=41`)
        return { body: { controller: true, own_wallet: true } };
      if (path === '/api/csrf-token') return { body: { token: 'csrf' } };
      if (path === '/api/listing/tokens/41/metadata') {
        sent.push(body);
        return { body: { token: TOKEN } };
      }
      return undefined;
    });
    render(withProviders(<ClaimListing issuer={ISSUER} />));
    const name = (await screen.findByLabelText('Name')) as HTMLInputElement;
    expect(name.value).toBe('Harbor Light');
    expect((screen.getByLabelText('Description') as HTMLTextAreaElement).value).toBe(
      'A light for the harbor.',
    );
    expect((screen.getByLabelText('Website') as HTMLInputElement).value).toBe('https://hrbr.example');
    expect(screen.getByTestId('current-logo').querySelector('img')!.getAttribute('src')).toBe(LOGO);

    fireEvent.change(screen.getByLabelText('Website'), { target: { value: 'https://harbor.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update listing' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      name: 'Harbor Light',
      description: 'A light for the harbor.',
      twitterLink: 'https://x.com/hrbr',
      websiteLink: 'https://harbor.example',
      logoUrl: LOGO,
    });
  });
});
