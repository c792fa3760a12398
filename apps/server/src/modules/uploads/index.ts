import type { Db } from '../../db/client';
import { ImageStore, storedImageName } from './store';

// What other modules use of uploads: whether a served logo URL names a stored upload (a deploy,
// listing or airdrop checks its logoUrl), the store itself (the demo seed), and the messenger
// publisher's interface.

export type { LogoPublisher, StoredLogo } from './routes';
export { ImageStore, storedImageName };
export { loadSharp } from './images';

/** True when `servedUrl` names an image our upload route stored (listing, airdrop logos). */
export async function isStoredUpload(db: Db, servedUrl: string): Promise<boolean> {
  const name = storedImageName(servedUrl);
  return name !== undefined && new ImageStore(db).has(name);
}
export { registerUploads, type UploadsApi } from './routes';
