import { useId, useRef, useState } from 'react';
import { checkLogoDimensions, checkLogoFile, LOGO_MIME_TYPES, UPLOAD_MESSAGES } from '@ledgerpad/shared';
import { ListingError, uploadLogo } from './api';

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

/**
 * The listing's logo (spec §5): type, size (5 MB) and aspect (0.8–1.2) are checked here, before
 * anything is sent; a file that passes is uploaded at once (purpose 'listing') and its served URL
 * handed to the form.
 */
export function LogoPicker({
  onUploaded,
  onBusy,
  disabled,
}: {
  onUploaded: (servedUrl: string | undefined) => void;
  onBusy: (busy: boolean) => void;
  disabled?: boolean;
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
    if (!file) return;
    const refused = checkLogoFile(file, 'listing');
    if (refused) return fail(refused);
    const size = await dimensionsOf(file);
    if (!size) return fail(UPLOAD_MESSAGES.unreadable);
    const wrongShape = checkLogoDimensions(size.width, size.height, 'listing');
    if (wrongShape) return fail(wrongShape);

    setUploading(true);
    onBusy(true);
    try {
      const url = await uploadLogo(file);
      // The stored image itself (re-encoded by the server), from our own origin.
      setPreview(url);
      onUploaded(url);
    } catch (err) {
      fail(err instanceof ListingError ? err.message : UPLOAD_MESSAGES.failed);
    } finally {
      setUploading(false);
      onBusy(false);
    }
  };

  function fail(message: string) {
    setError(message);
    if (input.current) input.current.value = '';
  }

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
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint`}
          onChange={(e) => void choose(e.target.files?.[0])}
        />
      </div>
      <p className="field-hint" id={`${id}-hint`}>
        {uploading ? 'Uploading…' : 'Optional. JPEG, PNG or WebP, under 5 MB, square or near-square.'}
      </p>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </div>
  );
}
