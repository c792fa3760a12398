import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, decodeSeed, ECDSA, keyToRFC1751Mnemonic, Wallet, AccountSetAsfFlags } from 'xrpl';
import { replayedWalletSchema, type DeployResult, type StagedWalletView } from '@ledgerpad/shared';
import { openDatabase } from '../../src/db/client';
import { Keyring, parseMasterKey } from '../../src/keys/envelope';
import { AIRDROP_WALLET_ROLE } from '../../src/modules/airdrops/service';
import { PLATFORM_ROLES } from '../../src/platform/accounts';
import { openWallet, STAGED_ROLES } from '../../src/platform/custody';
import { wallets } from '../../src/platform/custody-schema';
import {
  json,
  signInOverHttp,
  signInOwnerOverHttp,
  startChildServer,
  type ChildServer,
  uploadLogoOverHttp,
} from '../helpers/child-server';
import { SERVER_DIR } from '../helpers/server-process';
import { describeHits, SecretScanner, type WalletSecret } from '../helpers/secret-scan';
import { sleep } from '../helpers/wait';

// The secret canary (issue 34): wallets are made by every path — the web's create (no key), the
// API's with and without an Idempotency-Key, imports by seed (secp256k1, Ed25519), by BIP39 and
// RFC-1751 words and by private key, a deploy's issuer and hot (liquidity) wallets, a failed
// deploy's staged pair, an airdrop's wallet, the platform's own — and every route that touches a
// key runs: transfer, swap, deploy, airdrop creation and claim, the admin refund, a master key
// rotation and a signature under the new key. Then every byte the server wrote is searched for every
// secret it holds (decrypted from custody with the master key), in every encoding (test/helpers/
// secret-scan.ts): each file under DATA_DIR (the embedded database's pages and WAL, the ledger's
// files, key files), every log line at trace level (JSON, as a log shipper sees them), and on the
// PostgreSQL pass (TEST_DATABASE_URL) a pg_dump of the test's schema. Zero hits.
//
// The server is the real one (`node --import tsx src/main.ts`) on a real data directory.

const PG_URL = process.env.TEST_DATABASE_URL;
const MODE = PG_URL ? 'postgres' : 'pglite';
/** rippled's stand-alone genesis seed: public knowledge, in every rippled and in our source. */
const GENESIS_ADDRESS = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';

const dataDir = mkdtempSync(path.join(tmpdir(), 'ledgerpad-canary-'));
const schema = `t_${randomBytes(6).toString('hex')}`;
const servers: ChildServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.kill();
  rmSync(dataDir, { recursive: true, force: true });
  if (PG_URL) {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  }
});

const METRICS_TOKEN = randomBytes(16).toString('hex');

/** A child process's whole output and exit code (the key rotation script, pg_dump). */
function run(cmd: string, args: string[], env: Record<string, string>, cwd = SERVER_DIR) {
  return new Promise<{ code: number | null; stdout: Buffer; stderr: Buffer }>((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }));
  });
}

describe(`secret canary (${MODE})`, () => {
  it('no seed, private key or mnemonic anywhere but the sealed custody store', async () => {
    const t0 = Date.now();
    const masterKey = randomBytes(32).toString('hex');
    const rotatedKey = randomBytes(32).toString('hex');
    const output: string[] = [];
    const env: Record<string, string> = {
      // Every line the server can write, as JSON (what a log shipper stores; the console's pretty
      // form leaves fields out).
      LOG_LEVEL: 'trace',
      LOG_FORMAT: 'json',
      PLATFORM_BOOTSTRAP: 'on',
      DEMO_SEED: 'off',
      LEDGER_CLOSE_INTERVAL_MS: '500',
      METRICS_TOKEN: METRICS_TOKEN,
      ...(PG_URL
        ? {
            DATABASE_URL: PG_URL,
            DATABASE_SCHEMA: schema,
            SOCKET_TOKEN_SECRET: randomBytes(32).toString('hex'),
          }
        : {}),
    };
    const start = async (key: string) => {
      const s = await startChildServer(dataDir, key, output, env);
      servers.push(s);
      return s;
    };
    let server = await start(masterKey);
    const base = () => server.base;
    const post = (headers: Record<string, string>, url: string, body: object, key?: string) =>
      fetch(`${base()}${url}`, {
        method: 'POST',
        headers: { ...headers, ...(key ? { 'idempotency-key': key } : {}) },
        body: JSON.stringify(body),
      });
    const ok = async (res: Response, status = 200) => {
      const text = await res.text();
      expect(res.status, text).toBe(status);
      return JSON.parse(text) as Record<string, unknown>;
    };
    const jobDone = async (headers: Record<string, string>, jobId: string) => {
      for (let i = 0; ; i++) {
        const job = await json(await fetch(`${base()}/api/job-status/${jobId}`, { headers }));
        if (job.status === 'completed' || job.status === 'failed') return job;
        if (i > 1200) throw new Error(`job ${jobId} did not end: ${JSON.stringify(job)}`);
        await sleep(100);
      }
    };
    for (let i = 0; ; i++) {
      const r = await fetch(`${base()}/api/config/rlusd`);
      if (r.ok && (await json(r)).issuer) break;
      if (i > 600) throw new Error('the platform bootstrap did not finish');
      await sleep(100);
    }

    const alice = await signInOverHttp(base(), 'canary_alice');
    const bob = await signInOverHttp(base(), 'canary_bob');
    /** What the test itself knows of each secret (the custody store is read for all of them below). */
    const known: WalletSecret[] = [];

    // 1. Creations: the web's (no key), the API's with a key (and its replay), without one.
    const web = await ok(await post(alice, '/api/wallets', {}));
    const keyed = await ok(await post(bob, '/api/wallets', { name: 'keyed' }, 'canary-create-1'));
    const replay = await ok(await post(bob, '/api/wallets', { name: 'keyed' }, 'canary-create-1'));
    expect(replayedWalletSchema.parse(replay).id).toBe(keyed.id);
    expect(JSON.stringify(replay)).not.toContain(String(keyed.wallet_seed));
    const apiPlain = await ok(await post(bob, '/api/wallets', { name: 'plain' }));
    for (const w of [web, keyed, apiPlain])
      known.push({ label: `created ${w.wallet_address}`, seed: String(w.wallet_seed) });

    // 2. Imports: seeds of both key types, BIP39 and RFC-1751 words, a private key; with keys.
    const secpSeed = Wallet.generate();
    const edSeed = Wallet.generate(ECDSA.ed25519);
    const bip39 = generateMnemonic(wordlist, 128);
    const rfcWords = keyToRFC1751Mnemonic(
      Buffer.from(decodeSeed(Wallet.generate().seed!).bytes).toString('hex'),
    );
    const byKey = Wallet.generate(ECDSA.ed25519);
    const imports: Array<[object, WalletSecret, string]> = [
      [
        { seed: secpSeed.seed },
        { label: 'imported seed (secp256k1)', seed: secpSeed.seed! },
        secpSeed.address,
      ],
      [{ seed: edSeed.seed }, { label: 'imported seed (Ed25519)', seed: edSeed.seed! }, edSeed.address],
      [
        { type: 'mnemonic', mnemonic: bip39, wordCount: 12 },
        { label: 'imported BIP39 words', mnemonic: bip39, privateKey: Wallet.fromMnemonic(bip39).privateKey },
        Wallet.fromMnemonic(bip39).address,
      ],
      [
        { type: 'mnemonic', mnemonic: rfcWords, wordCount: 12 },
        { label: 'imported RFC-1751 words', mnemonic: rfcWords },
        '',
      ],
      [
        { type: 'privateKey', privateKey: byKey.privateKey },
        { label: 'imported private key', privateKey: byKey.privateKey },
        byKey.address,
      ],
    ];
    for (const [i, [body, secret, address]] of imports.entries()) {
      const res = await ok(await post(alice, '/api/wallets/import', body, `canary-import-${i}`));
      if (address) expect(res.wallet_address).toBe(address);
      known.push(secret);
    }

    // Error paths that could echo a body: malformed JSON, a secret in a field of the wrong kind, a
    // seed with a bad checksum, words that are no mnemonic — each with a key (a 4xx answer is stored).
    const echoed = Wallet.generate();
    // Eleven real words and one that is in no list: never a valid BIP39 or RFC-1751 phrase.
    const badWords = [...generateMnemonic(wordlist, 128).split(' ').slice(0, 11), 'ledgerpadx'].join(' ');
    known.push({ label: 'sent in refused imports', seed: echoed.seed!, mnemonic: badWords });
    const refused = [
      `{"seed": "${echoed.seed}", `,
      JSON.stringify({ type: echoed.seed, seed: echoed.seed }),
      JSON.stringify({ seed: echoed.seed, name: { nested: echoed.seed } }),
      JSON.stringify({ type: 'privateKey', privateKey: `${echoed.seed}` }),
      JSON.stringify({ type: 'mnemonic', mnemonic: badWords, wordCount: 12 }),
    ];
    for (const [i, body] of refused.entries()) {
      const res = await fetch(`${base()}/api/wallets/import`, {
        method: 'POST',
        headers: { ...alice, 'idempotency-key': `canary-refused-${i}` },
        body,
      });
      expect(res.status, body).toBe(400);
      const answer = await res.text();
      expect(answer).not.toContain(echoed.seed!);
      expect(answer).not.toContain(badWords);
    }

    // 3. Money in: the faucet (the genesis account signs).
    for (const w of [web, keyed, apiPlain]) {
      const owner = w === web ? alice : bob;
      await ok(await post(owner, `/api/wallets/${w.id}/fund`, {}, `canary-fund-${w.id}`));
    }

    // 4. A deploy (issuer, hot wallet and the pool's liquidity signed by server-made keys).
    const launch = async (
      owner: Record<string, string>,
      walletId: unknown,
      ticker: string,
      devAllocation = '0',
    ) => ({
      name: `Canary ${ticker}`,
      ticker,
      description: '',
      supply: '1000000',
      devAllocation,
      liquidityAmount: '100',
      ammFee: '0.3',
      logoUrl: await uploadLogoOverHttp(base(), owner),
      blackholeIssuer: false,
      requireAuth: false,
      liquidityPairType: 'XRP',
      walletId,
    });
    const deployed = await ok(
      await post(alice, '/api/deploy-token', await launch(alice, web.id, 'CNRY'), 'canary-deploy-1'),
      202,
    );
    const job = await jobDone(alice, String(deployed.jobId));
    expect(job.status, JSON.stringify(job)).toBe('completed');
    const token = job.result as DeployResult;

    // 5. Transfer, swap (bob buys the token), airdrop of it (its wallet) and a claim.
    await ok(
      await post(
        alice,
        '/api/wallets/transfer',
        { walletId: web.id, recipient: String(apiPlain.wallet_address), amount: '2', token: null },
        'canary-transfer-1',
      ),
    );
    await ok(
      await post(
        bob,
        '/api/swap',
        {
          walletAddress: keyed.wallet_address,
          issuer: token.issuer_address,
          token: token.currency,
          amount: '10',
          type: 'BUY',
          slippage: '5',
          baseAsset: 'XRP',
        },
        'canary-swap-1',
      ),
    );
    const airdrop = await ok(
      await post(
        bob,
        '/api/airdrops',
        {
          sourceWalletId: keyed.id,
          tokenCode: token.currency,
          issuerAddress: token.issuer_address,
          projectName: 'Canary Drop',
          perUserType: 'fixed',
          totalTokenAmount: '2',
          fixedAmount: '1',
          deadline: new Date(Date.now() + 3_600_000).toISOString(),
          trustlineMode: 'auto',
        },
        'canary-airdrop-1',
      ),
      202,
    );
    expect((await jobDone(bob, String(airdrop.jobId))).status).toBe('completed');
    await ok(
      await post(
        alice,
        `/api/airdrops/${airdrop.id}/claim`,
        { destinationWalletId: web.id },
        'canary-claim-1',
      ),
    );

    // 5b. Self-custody wallets (issue 38): a browser wallet and a wallet app's (GemWallet) prove
    // ownership, are funded, and sign a transfer and a buy of the token the server prepared. Their
    // seeds and keys stay with the test (the browser's vault, the app): none may reach any byte the
    // server writes — the database, the logs, the ledger's files.
    const selfCustody = async (
      who: Record<string, string>,
      w: Wallet,
      kind: 'browser' | 'external',
      i: number,
    ) => {
      const ch = await ok(
        await post(who, '/api/wallets/challenge', {
          address: w.classicAddress,
          kind,
          ...(kind === 'external' ? { app: 'gemwallet' } : {}),
        }),
      );
      const added = await ok(
        await post(who, '/api/wallets/self-custody', {
          challengeId: ch.challengeId,
          signedTx: w.sign(ch.tx as never).tx_blob,
          name: `canary ${kind}`,
        }),
      );
      expect(added).toMatchObject({ kind, wallet_address: w.classicAddress });
      await ok(await post(who, `/api/wallets/${added.id}/fund`, {}, `canary-sc-fund-${i}`));
      /** The action's intent, signed as prepared by the wallet and submitted. */
      const signed = async (url: string, body: object, key: string) => {
        const answer = await ok(await post(who, url, body, key));
        expect(answer.status).toBe('sign');
        const intent = answer.intent as { id: string; txs: object[] };
        const blobs = intent.txs.map((tx) => w.sign(tx as never).tx_blob);
        return ok(await post(who, `/api/intents/${intent.id}/submit`, { blobs }, `${key}.signed`));
      };
      await signed(
        '/api/wallets/transfer',
        { walletId: added.id, recipient: String(web.wallet_address), amount: '2', token: null },
        `canary-sc-transfer-${i}`,
      );
      const swap = await signed(
        '/api/swap',
        {
          walletAddress: w.classicAddress,
          issuer: token.issuer_address,
          token: token.currency,
          amount: '5',
          type: 'BUY',
          slippage: '5',
          baseAsset: 'XRP',
        },
        `canary-sc-swap-${i}`,
      );
      expect(swap.status).toBe('success');
      known.push({ label: `${kind} wallet ${w.classicAddress}`, seed: w.seed!, privateKey: w.privateKey });
    };
    await selfCustody(alice, Wallet.generate(), 'browser', 1);
    await selfCustody(bob, Wallet.generate(ECDSA.ed25519), 'external', 2);

    // 6. A deploy that fails after its staged wallets were funded (the paying wallet refuses the
    // dev allocation: DepositAuth, set with the seed its owner was given), and the admin refund of
    // its issuer wallet.
    const client = new Client(server.ledgerUrl);
    await client.connect();
    try {
      const w = Wallet.fromSeed(String(apiPlain.wallet_seed));
      await client.submitAndWait(
        { TransactionType: 'AccountSet', Account: w.address, SetFlag: AccountSetAsfFlags.asfDepositAuth },
        { wallet: w },
      );
    } finally {
      await client.disconnect();
    }
    const failing = await ok(
      await post(bob, '/api/deploy-token', await launch(bob, apiPlain.id, 'CNRF', '10'), 'canary-deploy-2'),
      202,
    );
    expect((await jobDone(bob, String(failing.jobId))).status).toBe('failed');
    const owner = await signInOwnerOverHttp(server);
    const staged = (await json(
      await fetch(`${base()}/api/admin/staged-wallets`, { headers: owner }),
    )) as unknown as StagedWalletView[];
    const refundable = staged.find((s) => s.type === 'issuer' && s.job_status === 'failed');
    expect(refundable, JSON.stringify(staged)).toBeDefined();
    await ok(
      await post(
        owner,
        '/api/admin/refund',
        { wallet_id: refundable!.id, destination_address: String(keyed.wallet_address), type: 'xrp' },
        'canary-refund-1',
      ),
    );

    /** What Prometheus scrapes (searched like the logs). */
    const metrics: string[] = [];
    const scrape = async () => {
      const res = await fetch(`${base()}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(res.status).toBe(200);
      metrics.push(await res.text());
    };
    await scrape();

    // 7. A master key rotation (server stopped: one process per embedded database), then a
    // signature under the new key.
    await server.stop();
    const dbEnv: Record<string, string> = PG_URL
      ? { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, SOCKET_TOKEN_SECRET: env.SOCKET_TOKEN_SECRET! }
      : { DATABASE_URL: '' };
    const rotation = await run(process.execPath, ['--import', 'tsx', 'src/scripts/rotate-keys.ts'], {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      XRPL_NETWORK: 'standalone',
      MASTER_KEY: masterKey,
      NEW_MASTER_KEY: rotatedKey,
      LOG_LEVEL: 'trace',
      ...dbEnv,
    });
    expect(rotation.code, rotation.stderr.toString()).toBe(0);
    expect(rotation.stdout.toString()).toMatch(/Re-wrapped \d+ of \d+ wallet keys/);
    server = await start(rotatedKey);
    await ok(
      await post(
        alice,
        '/api/wallets/transfer',
        { walletId: web.id, recipient: String(keyed.wallet_address), amount: '1', token: null },
        'canary-transfer-2',
      ),
    );
    await scrape();
    await server.stop();
    const exercised = Date.now();

    // Every secret the custody store holds, opened with the (rotated) master key.
    const database = await openDatabase(
      PG_URL
        ? { url: PG_URL, schema, migrate: false }
        : { dataDir: path.join(dataDir, 'db'), migrate: false },
    );
    const held = await database.db.select().from(wallets);
    await database.close();
    const keyring = new Keyring(parseMasterKey(rotatedKey));
    const secrets: WalletSecret[] = [...known];
    const roles = new Map<string, number>();
    for (const row of held) {
      roles.set(row.role, (roles.get(row.role) ?? 0) + 1);
      if (row.address === GENESIS_ADDRESS) continue;
      // A self-custody row holds no key to open (a check constraint): its secrets are in `known`.
      if (row.kind !== 'custodial') continue;
      const w = openWallet(keyring, row);
      secrets.push({
        label: `${row.role} ${row.address}`,
        ...(w.seed ? { seed: w.seed } : { privateKey: w.privateKey }),
      });
    }
    // Every path made its wallets: users' (created, imported, the adopted hot wallet), the failed
    // deploy's staged pair, the airdrop's, the platform's.
    expect(roles.get('user')).toBeGreaterThanOrEqual(3 + imports.length + 1);
    expect(roles.get(STAGED_ROLES.issuer)).toBeGreaterThanOrEqual(2);
    expect(roles.get(STAGED_ROLES.hot)).toBeGreaterThanOrEqual(1);
    expect(roles.get(AIRDROP_WALLET_ROLE)).toBe(1);
    expect(
      held
        .filter((r) => r.kind !== 'custodial')
        .map((r) => r.kind)
        .sort(),
    ).toEqual(['browser', 'external']);
    for (const role of [PLATFORM_ROLES.fee, PLATFORM_ROLES.rlusdIssuer]) expect(roles.get(role)).toBe(1);

    const scanner = new SecretScanner(secrets);
    const hits = scanner.scanDirectory(dataDir);
    const log = output.join('');
    // The log really is at trace level: every request's line (debug) is in it.
    expect((log.match(/"level":20,/g) ?? []).length).toBeGreaterThan(50);
    hits.push(...scanner.scanText(log, 'server output'));
    hits.push(
      ...scanner.scanBuffer(Buffer.concat([rotation.stdout, rotation.stderr]), 'key rotation output'),
    );
    expect(metrics.join('')).toContain('http_request');
    hits.push(...scanner.scanText(metrics.join('\n'), 'metrics'));
    let dumpBytes = 0;
    if (PG_URL) {
      // Skipped never: with TEST_DATABASE_URL the dump must run and be searched.
      const dump = await run('pg_dump', ['--dbname', PG_URL, '--schema', schema, '--no-owner'], {});
      expect(dump.code, dump.stderr.toString()).toBe(0);
      expect(dump.stdout.toString()).toContain(`${schema}.wallets`);
      dumpBytes = dump.stdout.length;
      hits.push(...scanner.scanBuffer(dump.stdout, 'pg_dump'));
    }
    const finished = Date.now();
    expect(describeHits(hits)).toBe('');
    process.stdout.write(
      `secret canary (${MODE}): ${secrets.length} secrets of ${held.length} custody records, ` +
        `${scanner.needles.length} needles; ${(scanner.scannedBytes / 1e6).toFixed(1)} MB scanned ` +
        `(data directory, ${(log.length / 1e3).toFixed(0)} kB of trace logs${PG_URL ? `, ${(dumpBytes / 1e6).toFixed(1)} MB pg_dump` : ''}) ` +
        `in ${((finished - exercised) / 1000).toFixed(1)} s; whole test ${((finished - t0) / 1000).toFixed(1)} s\n`,
    );
  }, 600_000);
});
