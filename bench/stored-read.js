#!/usr/bin/env node
// Benchmark of the sandbox's stored reads (not a test; figures go to
// docs/performance.md, "Sandbox stored reads"). Runs the BUILT code: `npm run build` first.
//
//   node bench/stored-read.js [--rows 100000]
//
// 1. Starts a sandbox on a loopback port with an in-memory store and writes
//    N stored campaign rows straight into SQLite (fast; ingestion is not
//    what is measured).
// 2. Throughput: reads every row over HTTP with limit 500, page after page.
// 3. Depth: walks to page 1,000 with limit 100, then times page 1 and page
//    1,000 (median of repeated requests). Keyset paging: they should match.
// 4. Demo world: generation + validation + load + first ingestion.
import { performance } from 'node:perf_hooks';
import { startSandbox } from '../dist/sandbox/index.js';
import { openDatabase } from '../dist/sandbox/store/db.js';
import { demoWorld } from '../dist/sandbox/fixtures/demo.js';
import { loadWorld } from '../dist/sandbox/fixtures/load.js';
import { ManualClock } from '../dist/sandbox/http/context.js';

const argRows = process.argv.indexOf('--rows');
const ROWS = argRows > 0 ? Number(process.argv[argRows + 1]) : 100_000;
const KEY = 'acr_bench_full_0001';

const world = {
  organizations: [{ id: 'org_bench', name: 'Bench', subscription: true }],
  members: [{ id: 'mem_bench', organization: 'org_bench', email: 'bench@bench.example', role: 'owner', state: 'active' }],
  apiKeys: [{ label: 'bench', key: KEY, member: 'mem_bench', permissions: 'all' }],
  advertisers: [{ id: 'acc_bench', organization: 'org_bench', provider: 'provider_a', name: 'Bench', currency: 'USD', connection: 'connected' }],
};

function fillStore(db, n) {
  const insert = db.prepare(
    `INSERT INTO observe_rows (kind, org_id, advertiser_id, provider, id, status, campaign_id, ad_group_id, source, row, created_at)
     VALUES ('campaign', 'org_bench', 'acc_bench', 'provider_a', ?, ?, NULL, NULL, '0:USD', ?, ?)`,
  );
  const statuses = ['ACTIVE', 'PAUSED', 'ARCHIVED', 'DELETED'];
  db.transaction(() => {
    for (let i = 1; i <= n; i++) {
      const id = String(23_800_000_000_000 + i);
      const status = statuses[i % 4];
      const row = {
        advertiserId: 'acc_bench', id, name: `Campaign ${i}`, path: id, provider: 'provider_a', type: 'campaign', status, currency: 'USD',
        createdTime: 1_780_000_000_000 + i, updatedTime: 1_780_000_000_000 + i, budget: (i % 500) + 10, budgetLevel: 'campaign', budgetType: 'daily',
        bidStrategy: null, objective: 'OUTCOME_SALES', adsetBudgetSharing: null,
      };
      insert.run(id, status, JSON.stringify(row), 1_790_000_000_000 + i);
    }
  })();
  db.exec('ANALYZE');
}

async function getJson(url) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${KEY}` } });
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timeRequest(url, times) {
  const samples = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await getJson(url);
    samples.push(performance.now() - t);
  }
  return median(samples);
}

async function main() {
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, data: ':memory:', world, quiet: true });
  const base = `${sandbox.url}/observe/campaigns`;
  try {
    let t = performance.now();
    fillStore(sandbox.services.db, ROWS);
    console.log(`filled ${ROWS} stored campaign rows in ${(performance.now() - t).toFixed(0)} ms`);

    // Throughput: every row, limit 500.
    t = performance.now();
    let read = 0;
    let pages = 0;
    let cursor;
    do {
      const page = await getJson(`${base}?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      read += page.data.length;
      pages += 1;
      cursor = page.nextCursor;
    } while (cursor);
    const seconds = (performance.now() - t) / 1000;
    console.log(`throughput: ${read} rows in ${pages} pages of 500 over HTTP, ${seconds.toFixed(2)} s = ${Math.round(read / seconds)} rows/s`);

    // Depth: the cursor of page 1,000 (limit 100), then page 1 vs page 1,000.
    cursor = undefined;
    for (let i = 1; i < 1000; i++) {
      const page = await getJson(`${base}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      cursor = page.nextCursor;
    }
    const deep = `${base}?limit=100&cursor=${encodeURIComponent(cursor)}`;
    const deepPage = await getJson(deep);
    const first = await timeRequest(`${base}?limit=100`, 50);
    const thousandth = await timeRequest(deep, 50);
    console.log(`page 1 (limit 100): median ${first.toFixed(2)} ms; page 1,000 (rows ${deepPage.data[0]?.id}…): median ${thousandth.toFixed(2)} ms; ratio ${(thousandth / first).toFixed(2)}`);
    const filtered = await timeRequest(`${base}?limit=100&status=PAUSED`, 50);
    console.log(`page 1 with status=PAUSED (limit 100): median ${filtered.toFixed(2)} ms`);
  } finally {
    await sandbox.close();
  }

  // The demo world: generate, validate, load, first ingestion.
  const t = performance.now();
  const db = openDatabase(':memory:');
  await loadWorld({ db, clock: new ManualClock(), secret: Buffer.alloc(32) }, demoWorld());
  const counts = db.prepare('SELECT kind, COUNT(*) AS n FROM observe_rows GROUP BY kind').all().map((r) => `${r.kind} ${r.n}`).join(', ');
  const insights = db.prepare('SELECT COUNT(*) FROM observe_insights').pluck().get();
  console.log(`demo world: generate + validate + load + ingest ${(performance.now() - t).toFixed(0)} ms (${counts}; ${insights} daily insight rows)`);
  db.close();
}

await main();
