import { closeWork, seededDemo } from './public-api';

// The work a ledger close puts on the API's event loop, on the demo market with no requests
// (docs/benchmarks.md, the public-API section): `npx tsx bench/close-work.ts [closes]`, or with
// `node --cpu-prof --import tsx bench/close-work.ts` to see what the loop does.

const { t } = await seededDemo();
try {
  await closeWork(t, 3); // warm-up (JIT)
  console.log(JSON.stringify(await closeWork(t, Number(process.argv[2] ?? 10))));
} finally {
  await t.close();
}
process.exit(0); // (a follower's timer may outlive close; --cpu-prof writes its profile on exit)
