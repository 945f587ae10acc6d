// #27: `observe campaigns --all --output ndjson` keeps the memory of its first
// pages however many rows follow. The built CLI streams 5,000 and then 50,000
// stored rows (written straight into the sandbox's SQLite, as ingestion stores
// them); each child reports its V8 heap at exit and its peak RSS. Before the
// fix V8 doubled its young generation as the pages went by (heap 10.8 -> 15.5
// MiB, RSS 1.2x); now the 10x run's heap stays within 25% of the small one's (measured 1.12x).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeOptions, PEAK_RSS_ARGS, peakRssKib } from '../../bench/lib/peak-rss.js';
import { fillStored } from '../../bench/lib/stored-rows.js';
import { storedRowJson } from '../../src/sandbox/ingest/stored-reads.js';
import { ensureBuilt, runAdops, tempConfigDir } from '../helpers/cli.js';
import { minimalWorld, startTestSandbox, withAdvertiser, type TestSandbox } from '../helpers/sandbox.js';

const SMALL = 5_000;
const BIG = 50_000;
// The child's heap (KiB) when it exits: the young generation's growth shows here first, without the allocator's noise.
const HEAP_AT_EXIT = [
  '--import',
  "data:text/javascript,process.on('exit',()=>process.stderr.write(String.fromCharCode(10)+'heap-total-kib='+Math.round(process.memoryUsage().heapTotal/1024)+String.fromCharCode(10)))",
];
const heapKib = (stderr: string) => Number(/heap-total-kib=(\d+)/.exec(stderr)?.[1]);

let sb: TestSandbox;
const cfg = tempConfigDir();

beforeAll(async () => {
  ensureBuilt();
  sb = await startTestSandbox({ world: withAdvertiser(withAdvertiser(minimalWorld(), { id: 'acc_small' }), { id: 'acc_big' }) });
  fillStored(sb.services.db, storedRowJson, { org: 'org_test', adv: 'acc_small', n: SMALL });
  fillStored(sb.services.db, storedRowJson, { org: 'org_test', adv: 'acc_big', n: BIG, idBase: SMALL });
}, 60_000);
afterAll(() => sb?.close());

async function walk(adv: string, rows: number): Promise<{ heap: number; rss: number }> {
  const r = await runAdops(['observe', 'campaigns', '--advertiser', adv, '--all', '--output', 'ndjson'], {
    env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: sb.keys.full, NODE_OPTIONS: nodeOptions([...HEAP_AT_EXIT, ...PEAK_RSS_ARGS]) },
    timeoutMs: 90_000,
  });
  expect(r.code, r.stderr.slice(-2000)).toBe(0);
  expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(rows);
  return { heap: heapKib(r.stderr), rss: peakRssKib(r.stderr) };
}

describe('--all --output ndjson memory by row count (#27)', () => {
  it('50,000 rows: the heap stays within 1.25x and the peak RSS within 1.15x of 5,000 rows', async () => {
    const small = await walk('acc_small', SMALL);
    const big = await walk('acc_big', BIG);
    const shown = `heap ${small.heap} -> ${big.heap} KiB, peak RSS ${small.rss} -> ${big.rss} KiB`;
    console.log(`h27 pages memory: ${shown}`);
    expect(big.heap / small.heap, shown).toBeLessThanOrEqual(1.25);
    expect(big.rss / small.rss, shown).toBeLessThanOrEqual(1.15);
  }, 120_000);
});
