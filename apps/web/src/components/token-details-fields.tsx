import { useState } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { LISTING_DESCRIPTION_MAX, type UploadPurpose, type UploadResponse } from '@ledgerpad/shared';
import { TextAreaField, TextField } from './form-field';
import { LogoPicker } from './logo-picker';

// What describes an existing token when it is listed (the /list-token form and the admin's
// add-token form): name, description, logo, Twitter/Telegram/Website and created date. Rules and
// messages are the shared listing schema's; the form owns react-hook-form and its error line.

export type TokenDetailsName =
  'name' | 'description' | 'twitterLink' | 'telegramLink' | 'websiteLink' | 'created_at';

const LINK_FIELDS = [
  { name: 'twitterLink', label: 'Twitter', placeholder: 'https://x.com/…' },
  { name: 'telegramLink', label: 'Telegram', placeholder: 'https://t.me/…' },
  { name: 'websiteLink', label: 'Website', placeholder: 'https://…' },
] as const;

const today = () => new Date().toISOString().slice(0, 10);

/** The messages of the fields TokenDetailsFields shows, in their order (the logo's included). */
export function tokenDetailsErrors(
  errors: Partial<Record<TokenDetailsName | 'logoUrl', { message?: string } | undefined>>,
): Array<string | undefined> {
  return (
    ['name', 'description', 'logoUrl', 'twitterLink', 'telegramLink', 'websiteLink', 'created_at'] as const
  ).map((name) => errors[name]?.message);
}

export interface TokenDetailsLogo {
  purpose: UploadPurpose;
  hint: string;
  /** The uploaded logo's served URL for the form's `logoUrl`; undefined when it is removed. */
  onLogoUrl: (url: string | undefined) => void;
  onBusy: (busy: boolean) => void;
  onRefused?: (message: string | undefined) => void;
}

/**
 * A form's logo upload, wired once for the listing, claim and admin forms: `uploading` holds the
 * submit button while the file is sent, `refused` is the picker's refusal (a form refuses to submit
 * with one rather than drop the logo silently), `logo` goes to TokenDetailsFields. `setLogoUrl` puts
 * the served URL (undefined: removed) into the form.
 */
export function useLogoUpload(
  look: { purpose: UploadPurpose; hint: string },
  setLogoUrl: (url: string | undefined) => void,
): { uploading: boolean; refused: string | undefined; logo: TokenDetailsLogo } {
  const [uploading, setUploading] = useState(false);
  const [refused, setRefused] = useState<string>();
  return {
    uploading,
    refused,
    logo: { ...look, onBusy: setUploading, onRefused: setRefused, onLogoUrl: setLogoUrl },
  };
}

export function TokenDetailsFields({
  register,
  invalid,
  errorId,
  disabled,
  description,
  logo,
  createdDate = true,
}: {
  register: (name: TokenDetailsName) => UseFormRegisterReturn;
  invalid: (name: TokenDetailsName) => boolean;
  /** The form's FormErrors element. */
  errorId: string;
  disabled?: boolean;
  /** The description as typed, for its counter. */
  description: string;
  logo: TokenDetailsLogo;
  /** The created date is an admin's to set (a user's is ignored): hidden where it cannot apply. */
  createdDate?: boolean;
}) {
  return (
    <>
      <TextField
        label="Name"
        autoComplete="off"
        maxLength={200}
        invalid={invalid('name')}
        errorId={errorId}
        disabled={disabled}
        {...register('name')}
      />
      <TextAreaField
        label="Description"
        rows={4}
        invalid={invalid('description')}
        errorId={errorId}
        disabled={disabled}
        hint={
          <span className={description.length > LISTING_DESCRIPTION_MAX ? 'error-inline' : undefined}>
            {description.length}/{LISTING_DESCRIPTION_MAX}
          </span>
        }
        {...register('description')}
      />
      <LogoPicker
        purpose={logo.purpose}
        hint={logo.hint}
        onBusy={logo.onBusy}
        onRefused={logo.onRefused}
        onUploaded={(uploaded?: UploadResponse) => logo.onLogoUrl(uploaded?.servedUrl)}
        disabled={disabled}
      />
      {LINK_FIELDS.map((link) => (
        <TextField
          key={link.name}
          label={link.label}
          type="url"
          inputMode="url"
          placeholder={link.placeholder}
          invalid={invalid(link.name)}
          errorId={errorId}
          disabled={disabled}
          {...register(link.name)}
        />
      ))}
      {createdDate && (
        <TextField
          label="Created date"
          type="date"
          max={today()}
          hint="When the token was created (admins only; otherwise read from the ledger)."
          invalid={invalid('created_at')}
          errorId={errorId}
          disabled={disabled}
          {...register('created_at')}
        />
      )}
    </>
  );
}
