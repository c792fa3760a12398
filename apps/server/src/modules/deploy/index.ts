// What the rest of the server uses of the deploy module.
export { DEPLOY_JOB, deployStepNames, type DeployPayload } from './job';
export { BLACKHOLE_ADDRESS, planDeploy } from './plan';
export type { DeployService } from './service';
export { deployLogosInUse } from './logos';
export { registerDeploy } from './routes';
export { waitingClaim } from './self-custody';
