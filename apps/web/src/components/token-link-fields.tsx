import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from './form-field';

// The Twitter, Telegram and Website inputs of the forms that describe a token (listing, the admin's
// add-token); the rules and messages are the shared `tokenLinkFields`.

export type TokenLinkName = 'twitterLink' | 'telegramLink' | 'websiteLink';

const LINK_FIELDS: ReadonlyArray<{ name: TokenLinkName; label: string; placeholder: string }> = [
  { name: 'twitterLink', label: 'Twitter', placeholder: 'https://x.com/…' },
  { name: 'telegramLink', label: 'Telegram', placeholder: 'https://t.me/…' },
  { name: 'websiteLink', label: 'Website', placeholder: 'https://…' },
];

export function TokenLinkFields({
  register,
  invalid,
  errorId,
  disabled,
}: {
  register: (name: TokenLinkName) => UseFormRegisterReturn;
  invalid: (name: TokenLinkName) => boolean;
  /** The form's FormErrors element. */
  errorId: string;
  disabled?: boolean;
}) {
  return LINK_FIELDS.map((link) => (
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
  ));
}
