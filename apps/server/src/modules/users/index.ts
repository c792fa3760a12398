// What the rest of the server uses of the users module.
export {
  claimLabel,
  customFeePercent,
  demoSignIn,
  demoUserExists,
  toPublicUser,
  upsertUser,
  type ProfileFields,
  type SignedInUser,
} from './service';
export { registerUsers } from './routes';
