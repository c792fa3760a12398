import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/db/client';
import { ImageStore } from '../../src/modules/uploads';

// A logo as a deploy or listing needs it (issue 35): an image our store holds, and no other token's.
// Each call stores new bytes (their sha-256 is the name), so every token gets its own. The bytes are
// not decoded by the deploy (the upload route checked them when a user uploaded them).

export async function testLogo(db: Db): Promise<string> {
  return `/cdn/logos/${await new ImageStore(db).put(randomBytes(64), 'png')}`;
}
