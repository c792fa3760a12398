// What the rest of the server uses of the deploy module.
export { DEPLOY_JOB, type DeployPayload } from './job';
export { BLACKHOLE_ADDRESS, planDeploy, splitSupply } from './plan';
