import { benchAirdrops } from './airdrops';
import { benchBonding } from './bonding';
import { benchDeploy } from './deploy';
import { benchFirstStartMemory } from './first-start-memory';
import { benchIndexer } from './indexer';
import { benchMarket } from './market';
import { benchPositions } from './positions';
import { benchSocketFanout } from './socket-fanout';
import { benchTrading } from './trading';
import { benchTransfers } from './transfers';

// `npm run bench -w apps/server`: every server benchmark, one function each, figures printed as
// JSON lines; the exit code is non-zero when a benchmark misses its target.

const benchmarks: Array<{ name: string; run: () => Promise<{ ok: boolean }> }> = [
  { name: 'socket fan-out (5,000 subscribers)', run: () => benchSocketFanout() },
  { name: 'transfers (200 from one account)', run: () => benchTransfers() },
  { name: 'deploy (pipelined vs one transaction per ledger)', run: () => benchDeploy() },
  { name: 'market API (10,000 tokens) vs static files', run: () => benchMarket() },
  { name: 'market indexer (catch-up, close-to-frame)', run: () => benchIndexer() },
  { name: 'positions (a wallet with 10,000 trades)', run: () => benchPositions() },
  { name: 'trading (100 swaps at once; quotes against a pool and 1,000 offers)', run: () => benchTrading() },
  { name: 'airdrop claims (500 at once on one airdrop)', run: () => benchAirdrops() },
  { name: 'bonding curve (100 buyers at once; the keeper re-posting)', run: () => benchBonding() },
  { name: 'first-start memory (npm start, empty data dir, then again)', run: () => benchFirstStartMemory() },
];

let failed = 0;
for (const bench of benchmarks) {
  console.log(`# ${bench.name}`);
  try {
    const result = await bench.run();
    console.log(JSON.stringify(result, null, 2));
    if (!result.ok) failed++;
  } catch (err) {
    failed++;
    console.error(`${bench.name} failed:`, err);
  }
}
if (failed > 0) {
  console.error(`${failed} benchmark(s) missed their target`);
  process.exitCode = 1;
}
