// The demo market of the embedded default (see seed.ts).
export { DEMO_SEED_JOB, DemoTrading, demoEnabled, registerDemo } from './seed';
