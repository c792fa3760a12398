// Airdrops: a creator's allocation in a dedicated custodial wallet, claimed by signed-in users.
export { registerAirdrops } from './routes';
export {
  AirdropService,
  AIRDROP_CLAIM_JOB,
  AIRDROP_CLOSE_JOB,
  AIRDROP_CREATE_JOB,
  drawAmount,
} from './service';
export { claimIntentKey } from './payer';
export { airdropLogosInUse } from './logos';
