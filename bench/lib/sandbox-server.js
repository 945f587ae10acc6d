#!/usr/bin/env node
// The server side of bench/sandbox-scale.js, in its own process so the bench's
// client and load generator never share its event loop. Starts, on loopback:
//   - the sandbox (built code, in-memory store) with a bench world written
//     straight into SQLite (fast; ingestion is not what is measured):
//       acc_stored  N stored campaign rows, serialized as ingestion stores them
//       acc_old     N stored campaign rows without the serialized copy (the
//                   per-row parse and re-serialize path, as before issue 10)
//       acc_live    M provider_a campaigns at the simulated provider (live reads)
//   - a trivial Hono app on @hono/node-server: the ceiling of this stack here
//       GET /page   a fixed page of 500 stored rows (the bytes a stored read sends)
//       GET /tiny   {"ok":true}
// Prints one JSON line {url, trivialUrl, key, pid} when ready; exits on SIGTERM
// or when stdin closes.
//
//   node bench/lib/sandbox-server.js [--stored 100000] [--live 20000]
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { startSandbox } from '../../dist/sandbox/index.js';
import { storedRowJson } from '../../dist/sandbox/ingest/stored-reads.js';
import { campaignRow, fillStored } from './stored-rows.js';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const STORED = arg('stored', 100_000);
const LIVE = arg('live', 20_000);
export const KEY = 'acr_bench_full_0001';

const advertiser = (id) => ({ id, organization: 'org_bench', provider: 'provider_a', name: id, currency: 'USD', connection: 'connected' });
const world = {
  organizations: [{ id: 'org_bench', name: 'Bench', subscription: true }],
  members: [{ id: 'mem_bench', organization: 'org_bench', email: 'bench@bench.example', role: 'owner', state: 'active' }],
  apiKeys: [{ label: 'bench', key: KEY, member: 'mem_bench', permissions: 'all' }],
  advertisers: [advertiser('acc_stored'), advertiser('acc_old'), advertiser('acc_live')],
};

function fillLive(db, n) {
  const insert = db.prepare(`INSERT INTO provider_entities (advertiser_id, kind, id, position, payload, stamp) VALUES ('acc_live', 'campaign', ?, ?, ?, 0)`);
  db.transaction(() => {
    for (let i = 1; i <= n; i++) {
      const id = String(12_000_000 + i);
      insert.run(
        id,
        i,
        JSON.stringify({
          id,
          account_id: 'act_bench',
          name: `Live ${i}`,
          objective: 'OUTCOME_TRAFFIC',
          status: i % 3 ? 'ACTIVE' : 'PAUSED',
          daily_budget: String(1000 + i),
          bid_strategy: 'LOWEST_COST_WITHOUT_CAP',
          created_time: '2026-08-01T10:00:00+0000',
          updated_time: '2026-08-02T10:00:00+0000',
        }),
      );
    }
  })();
}

const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, data: ':memory:', world, quiet: true });
const { db } = sandbox.services;
fillStored(db, storedRowJson, { org: 'org_bench', adv: 'acc_stored', n: STORED });
fillStored(db, storedRowJson, { org: 'org_bench', adv: 'acc_old', n: STORED, withJson: false });
fillLive(db, LIVE);
db.exec('ANALYZE');

const page = JSON.stringify({
  data: Array.from({ length: 500 }, (_, i) => ({ ...campaignRow('acc_stored', i + 1), createdAt: 1, updatedAt: null, deletedAt: null })),
  nextCursor: 'x'.repeat(60),
});
const trivial = new Hono();
trivial.get('/page', (c) => c.body(page, 200, { 'content-type': 'application/json' }));
trivial.get('/tiny', (c) => c.json({ ok: true }));
const trivialServer = await new Promise((resolve) => {
  const s = serve({ fetch: trivial.fetch, hostname: '127.0.0.1', port: 0 }, (info) => resolve({ s, port: info.port }));
});

const stop = async () => {
  trivialServer.s.close();
  await sandbox.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
console.log(JSON.stringify({ url: sandbox.url, trivialUrl: `http://127.0.0.1:${trivialServer.port}`, key: KEY, pid: process.pid }));
