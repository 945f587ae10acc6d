#!/usr/bin/env node
// How long the sandbox takes to load a world of hundreds of thousands of rows
// (#27, "the sandbox loads a world that size in bounded time; say how long"):
// a world of one provider_a advertiser with N campaigns, loaded the way a
// fixture file is (startSandbox({ world }): schema check, provider entities,
// ingestion into the stored rows), in a child process each, N = 20,000 and
// 200,000. The baseline is the small world ×10: bounded means linear, the 10×
// world within 1.5× of ten small ones. The first stored page is read back to
// check the rows landed. Peak RSS of each child beside it.
//   node bench/sandbox-load.js [--rows 200000]   (needs `npm run build`; ~30 s)
// Prints `figure:` JSON lines for bench/run-all.js.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownPeakRssKib } from './lib/peak-rss.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const KEY = 'acr_bench_full_0001';

async function load(rows) {
  const { startSandbox } = await import('../dist/sandbox/index.js');
  const campaigns = Array.from({ length: rows }, (_, i) => ({
    id: String(23_844_573_300_001 + i * 2),
    account_id: 'act_445733',
    name: `Campaign ${i}`,
    objective: 'OUTCOME_SALES',
    status: i % 3 ? 'ACTIVE' : 'PAUSED',
    start_time: '2026-08-01T07:45:49+0000',
    created_time: '2026-08-01T07:45:49+0000',
    updated_time: '2026-09-04T07:45:49+0000',
    daily_budget: String(1000 + (i % 500)),
    bid_strategy: 'COST_CAP',
  }));
  const world = {
    organizations: [{ id: 'org_bench', name: 'Bench', subscription: true }],
    members: [{ id: 'mem_bench', organization: 'org_bench', email: 'bench@bench.example', role: 'owner', state: 'active' }],
    apiKeys: [{ label: 'bench', key: KEY, member: 'mem_bench', permissions: 'all' }],
    advertisers: [{ id: 'acc_big', organization: 'org_bench', provider: 'provider_a', name: 'Big', currency: 'USD', connection: 'connected', campaigns }],
  };
  const t = performance.now();
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, data: ':memory:', world, quiet: true });
  const ms = performance.now() - t;
  const res = await fetch(`${sandbox.url}/observe/campaigns?advertiserId=acc_big&limit=500`, { headers: { authorization: `Bearer ${KEY}` } });
  const page = await res.json();
  await sandbox.close();
  if (res.status !== 200 || page.data.length !== Math.min(500, rows)) throw new Error(`first page: ${res.status}, ${page.data?.length} rows`);
  console.log(JSON.stringify({ ms, rssMiB: ownPeakRssKib() / 1024 }));
}

function child(rows) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--load', String(rows)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`loading ${rows} rows: exit ${r.status}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1));
}

if (args[0] === '--load') {
  await load(Number(args[1]));
} else {
  if (!existsSync(join(ROOT, 'dist', 'sandbox', 'index.js'))) {
    console.error('build first: npm run build');
    process.exit(2);
  }
  const big = args.includes('--rows') ? Number(args[args.indexOf('--rows') + 1]) : 200_000;
  const small = big / 10;
  const loadBefore = loadavg()[0].toFixed(2);
  const s = child(small);
  const b = child(big);
  const x = b.ms / (10 * s.ms);
  console.log(
    `world load, one advertiser's campaigns through the fixture path; load ${loadBefore} → ${loadavg()[0].toFixed(2)}:\n` +
      `  ${small.toLocaleString('en-US')} rows: ${(s.ms / 1000).toFixed(1)} s, peak RSS ${s.rssMiB.toFixed(0)} MiB\n` +
      `  ${big.toLocaleString('en-US')} rows: ${(b.ms / 1000).toFixed(1)} s, peak RSS ${b.rssMiB.toFixed(0)} MiB (${x.toFixed(2)}× ten small worlds)`,
  );
  console.log(
    `figure: ${JSON.stringify({
      measure: `sandbox loads a ${big / 1000}k-campaign world (fixture path, in memory)`,
      result: `${(b.ms / 1000).toFixed(1)} s, ${x.toFixed(2)}× linear, peak RSS ${b.rssMiB.toFixed(0)} MiB`,
      baseline: `${small / 1000}k world ${(s.ms / 1000).toFixed(1)} s ×10 = ${((10 * s.ms) / 1000).toFixed(1)} s`,
      target: 'bounded: ≤ 1.5× linear',
      met: x <= 1.5,
    })}`,
  );
  if (x > 1.5) process.exitCode = 1;
}
