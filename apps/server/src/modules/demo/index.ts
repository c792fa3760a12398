// The demo market of the embedded default (see seed.ts).
export { DEMO_SEED_JOB, DemoTrading, demoClockOffsetMs, demoEnabled, registerDemo } from './seed';
