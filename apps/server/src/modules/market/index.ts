// What the rest of the server uses of the market module.
export type { MarketSnapshot, PriceRecord, Snapshot } from './snapshot';
export { RESOLUTIONS } from './indexer';
