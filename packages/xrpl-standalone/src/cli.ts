// xrpl-standalone CLI: flags mirror rippled's stand-alone knobs ([voting] values in drops).
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_AMENDMENTS, parseAmendmentList } from './core/amendments';
import {
  GENESIS_ADDRESS,
  GENESIS_SEED,
  startStandaloneLedger,
  refusalReporter,
  type AdminCredentials,
} from './index';

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
  --admin-user <name>       with a password: the user admin requests must name (default admin)
  --admin-password-file <f> require rippled's admin_user/admin_password (the file's first line) for
                            admin methods and the faucet; XRPL_STANDALONE_ADMIN_PASSWORD works too.
                            Without one, every client on this machine (loopback) is admin.
  --allow-host <name>       accept this name in the Host header besides localhost, 127.0.0.1 and
                            [::1] (repeatable; for --host on another interface)
  -h, --help                show this help

Requests from web pages (an Origin header) and with any other Host are refused (403), and only
loopback clients are ever admin, so a page open in a browser can neither fund, close nor read.
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

/**
 * The admin password from a file or the environment, never from the command line (where `ps`
 * shows it to every user of the machine); none: loopback clients are admin, as rippled's default.
 */
function adminCredentials(user: string | undefined, file: string | undefined): AdminCredentials | undefined {
  let password = process.env.XRPL_STANDALONE_ADMIN_PASSWORD;
  if (file !== undefined) {
    try {
      password = readFileSync(file, 'utf8').split(/\r?\n/)[0];
    } catch (err) {
      console.error(`--admin-password-file: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(2);
    }
  }
  if (!password) {
    if (file !== undefined || user !== undefined) {
      console.error('--admin-user needs a password: --admin-password-file or XRPL_STANDALONE_ADMIN_PASSWORD');
      process.exit(2);
    }
    return undefined;
  }
  return { user: user ?? 'admin', password };
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
      'admin-user': { type: 'string' },
      'admin-password-file': { type: 'string' },
      'allow-host': { type: 'string', multiple: true },
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
  const admin = adminCredentials(values['admin-user'], values['admin-password-file']);
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
    admin,
    allowedHosts: values['allow-host'],
    onRefused: refusalReporter((line) => console.error(`xrpl-standalone: ${line}`)),
  });
  console.log(`xrpl-standalone listening on ${ledger.url} (JSON-RPC: ${ledger.httpUrl})`);
  console.log(`genesis account ${GENESIS_ADDRESS} (seed ${GENESIS_SEED})`);
  console.log(
    admin
      ? `admin methods and the faucet: loopback clients with admin_user "${admin.user}" and its password`
      : 'admin methods and the faucet: every loopback client (no admin password set)',
  );
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
