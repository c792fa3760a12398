import { access } from 'node:fs/promises';
import path from 'node:path';
import { LOGO_URL_PREFIX, IMAGE_URL_PREFIX, STORED_IMAGE_NAME } from '@ledgerpad/shared';
import { ImageStore, uploadsDir } from './store';

// What other modules use of uploads: where a served logo URL lives on disk (a deploy or listing can
// check that its logoUrl names a stored upload), and the messenger publisher's interface.

export type { LogoPublisher, StoredLogo } from './routes';
export { ImageStore, uploadsDir };

/** The file behind `/cdn/logos/<name>` or `/images/<name>`, or undefined for any other URL. */
export function storedImageFile(dataDir: string, servedUrl: string): string | undefined {
  for (const prefix of [LOGO_URL_PREFIX, IMAGE_URL_PREFIX]) {
    if (!servedUrl.startsWith(prefix)) continue;
    const name = servedUrl.slice(prefix.length);
    return STORED_IMAGE_NAME.test(name) ? path.join(uploadsDir(dataDir), name) : undefined;
  }
  return undefined;
}

/** True when `servedUrl` names an image our upload route stored (listing, airdrop logos). */
export async function isStoredUpload(dataDir: string, servedUrl: string): Promise<boolean> {
  const file = storedImageFile(dataDir, servedUrl);
  if (!file) return false;
  return access(file).then(
    () => true,
    () => false,
  );
}
export { registerUploads, type UploadsApi } from './routes';
