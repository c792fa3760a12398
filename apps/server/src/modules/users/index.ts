// What the rest of the server uses of the users module.
export {
  customFeePercent,
  demoSignIn,
  demoUserExists,
  DEMO_MESSAGES,
  toPublicUser,
  upsertUser,
  type ProfileFields,
} from './service';
export { registerUsers } from './routes';
