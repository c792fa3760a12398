// Airdrops: a creator's allocation in a dedicated custodial wallet, claimed by signed-in users.
export { registerAirdrops } from './routes';
export { AIRDROP_CLOSE_JOB, drawAmount } from './service';
export { airdropLogosInUse } from './logos';
