import { benchTrading } from './trading';
const r = await benchTrading({ bookOffers: 4, samples: 3 });
console.log(JSON.stringify(r.swaps));
