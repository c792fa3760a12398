import { benchAirdrops } from '/work/main/apps/server/bench/airdrops';
const r = await benchAirdrops({ ledgerThread: process.env.LT === '1' });
console.log(JSON.stringify({ closes: r.ledgerCloses, paid: r.paid, lastPaid: r.lastPaidMs, cpu: r.burstCpuMs, total: r.totalMs, per: r.perLedger }));
