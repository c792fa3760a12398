import { demoAuthSchema } from '@ledgerpad/shared';
import { requestResolver } from '../lib/form-resolver';

/** The server's own check of a demo username (3-32 letters, digits or underscores), on the trimmed name. */
export const demoSignInResolver = requestResolver<{ username: string }>(demoAuthSchema, (v) => ({
  username: v.username.trim(),
}));
