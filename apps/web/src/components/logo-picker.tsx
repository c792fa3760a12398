import { useId, useRef, useState } from 'react';
import {
  checkLogoDimensions,
  checkLogoFile,
  LOGO_MIME_TYPES,
  UPLOAD_FIELDS,
  UPLOAD_MESSAGES,
  uploadResponseSchema,
  type UploadPurpose,
  type UploadResponse,
} from '@ledgerpad/shared';
import { apiPostForm, userMessage } from '../lib/api';
import './logo-picker.css';

// A logo input shared by the deploy, listing, airdrop and admin token forms (spec 001 §5): type, size (by
// purpose) and aspect (0.8–1.2) are checked in the browser before anything is sent; a file that
// passes is uploaded at once and its served URL handed to the form.

type Purpose = UploadPurpose;

/** Width and height of an image file, decoded by the browser; undefined when it is not an image. */
async function dimensionsOf(file: File): Promise<{ width: number; height: number } | undefined> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return undefined;
  }
}

/** POST /api/upload; a refusal is the server's own sentence, anything else the spec's message. */
async function uploadLogo(file: File, purpose: Purpose): Promise<UploadResponse> {
  const form = new FormData();
  // Text fields first: the server applies the purpose's size limit while the file streams in.
  form.append(UPLOAD_FIELDS.purpose, purpose);
  form.append(UPLOAD_FIELDS.file, file);
  try {
    return uploadResponseSchema.parse(await apiPostForm('/api/upload', form));
  } catch (err) {
    throw new Error(userMessage(err, UPLOAD_MESSAGES.failed));
  }
}

export function LogoPicker({
  purpose,
  hint,
  onUploaded,
  onBusy,
  disabled,
  error: formError,
  onRefused,
}: {
  purpose: Purpose;
  hint: string;
  onUploaded: (uploaded: UploadResponse | undefined) => void;
  onBusy: (busy: boolean) => void;
  disabled?: boolean;
  /** A message from the form (e.g. a logo is required). */
  error?: string;
  /**
   * Told the refusal while a chosen file was refused (undefined once a valid one is uploaded or
   * the choice cleared): a form must not go on without the logo its user meant to send.
   */
  onRefused?: (message: string | undefined) => void;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string>();
  const [preview, setPreview] = useState<string>();
  const [uploading, setUploading] = useState(false);

  const choose = async (file: File | undefined) => {
    setError(undefined);
    setPreview(undefined);
    onUploaded(undefined);
    onRefused?.(undefined);
    if (!file) return;
    const refused = checkLogoFile(file, purpose);
    if (refused) return fail(refused);
    const size = await dimensionsOf(file);
    if (!size) return fail(UPLOAD_MESSAGES.unreadable);
    const wrongShape = checkLogoDimensions(size.width, size.height, purpose);
    if (wrongShape) return fail(wrongShape);

    setUploading(true);
    onBusy(true);
    try {
      const uploaded = await uploadLogo(file, purpose);
      // The stored image itself (re-encoded by the server), from our own origin.
      setPreview(uploaded.servedUrl);
      onUploaded(uploaded);
    } catch (err) {
      fail((err as Error).message);
    } finally {
      setUploading(false);
      onBusy(false);
    }
  };

  function fail(message: string) {
    setError(message);
    onRefused?.(message);
    if (input.current) input.current.value = '';
  }

  const shown = error ?? formError;
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        Logo
      </label>
      <div className="logo-row">
        {preview && <img className="logo-preview" src={preview} alt="Logo preview" width={56} height={56} />}
        <input
          ref={input}
          id={id}
          className="input"
          type="file"
          accept={LOGO_MIME_TYPES.join(',')}
          disabled={disabled || uploading}
          aria-invalid={shown ? true : undefined}
          aria-describedby={`${id}-hint`}
          onChange={(e) => void choose(e.target.files?.[0])}
        />
      </div>
      <p className="field-hint" id={`${id}-hint`}>
        {uploading ? 'Uploading…' : hint}
      </p>
      {shown && (
        <p role="alert" className="form-error">
          {shown}
        </p>
      )}
    </div>
  );
}
