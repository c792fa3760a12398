// xrpl-standalone CLI: flags mirror rippled's stand-alone knobs ([voting] values in drops).
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_AMENDMENTS, parseAmendmentList } from './core/amendments';
import { GENESIS_ADDRESS, GENESIS_SEED, startStandaloneLedger } from './index';

const HELP = `Usage: xrpl-standalone [options]

A stand-alone XRP Ledger server with rippled's WebSocket and JSON-RPC API on one port.

Options:
  --port <n>                TCP port (default 6006; 0 picks a free port)
  --host <addr>             interface to bind (default 127.0.0.1)
  --close-interval-ms <n>   close a ledger every n ms (default 1000; 0 = only on ledger_accept)
  --data-dir <dir>          persist ledgers in <dir> (default: in memory only)
  --ledger-history <n>      closed ledgers kept in memory (default 10000; older ones are dropped)
  --reserve-base <drops>    account reserve, in drops (default 1000000 = 1 XRP)
  --reserve-inc <drops>     owner reserve per object, in drops (default 200000 = 0.2 XRP)
  --base-fee <drops>        reference transaction cost, in drops (default 10)
  --amendments <list|file> enabled amendments: comma-separated names, or a file with one name per
                            line or a rippled config's [features] stanza (default: mainnet's set)
  --disable-amendment <name>  drop one amendment from the set (repeatable), e.g. fixAMMv1_3
  --network-id <n>          NetworkID to report (default none)
  --no-faucet               disable the faucet (POST /accounts)
  -h, --help                show this help
`;

function wholeNumber(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) {
    console.error(`--${name} must be a whole number (got ${value})`);
    process.exit(2);
  }
  return value;
}

/** The amendment set from --amendments (list or file) minus every --disable-amendment. */
function amendmentSet(list: string | undefined, disabled: string[] | undefined): string[] | undefined {
  if (list === undefined && !disabled?.length) return undefined;
  let names: string[] = [...DEFAULT_AMENDMENTS];
  if (list !== undefined) {
    const text = existsSync(list) ? readFileSync(list, 'utf8') : list;
    try {
      names = parseAmendmentList(text);
    } catch (err) {
      console.error(`--amendments: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(2);
    }
  }
  const drop = new Set(disabled ?? []);
  return names.filter((n) => !drop.has(n));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'close-interval-ms': { type: 'string' },
      'data-dir': { type: 'string' },
      'ledger-history': { type: 'string' },
      'reserve-base': { type: 'string' },
      'reserve-inc': { type: 'string' },
      'base-fee': { type: 'string' },
      'network-id': { type: 'string' },
      amendments: { type: 'string' },
      'disable-amendment': { type: 'string', multiple: true },
      'no-faucet': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const port = wholeNumber('port', values.port);
  const interval = wholeNumber('close-interval-ms', values['close-interval-ms']);
  const networkId = wholeNumber('network-id', values['network-id']);
  const ledgerHistory = wholeNumber('ledger-history', values['ledger-history']);
  const ledger = await startStandaloneLedger({
    port: port === undefined ? 6006 : Number(port),
    host: values.host,
    closeIntervalMs: interval === undefined ? undefined : Number(interval),
    dataDir: values['data-dir'],
    ledgerHistory: ledgerHistory === undefined ? undefined : Math.max(1, Number(ledgerHistory)),
    reserveBase: wholeNumber('reserve-base', values['reserve-base']),
    reserveIncrement: wholeNumber('reserve-inc', values['reserve-inc']),
    baseFee: wholeNumber('base-fee', values['base-fee']),
    networkId: networkId === undefined ? undefined : Number(networkId),
    amendments: amendmentSet(values.amendments, values['disable-amendment']),
    faucet: !values['no-faucet'],
  });
  console.log(`xrpl-standalone listening on ${ledger.url} (JSON-RPC: ${ledger.httpUrl})`);
  console.log(`genesis account ${GENESIS_ADDRESS} (seed ${GENESIS_SEED})`);
  const stop = (): void => {
    void ledger.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
