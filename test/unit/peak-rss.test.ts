// The memory benches and tests read a child's peak RSS from the child itself
// (bench/lib/peak-rss.js, bench/lib/child-usage.js). Linux carries ru_maxrss
// across execve, so `process.resourceUsage().maxRSS` in a spawned child is at
// least its parent's RSS at the spawn: apply-input's 150,000-row check failed
// in CI at 187 MiB for a child whose own peak is 82 MiB, and a ratio of two
// children of one big parent reads ~1.0 whatever the children do. These spawn
// children from a parent holding 256 MiB and check the figure is the child's.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childUsage, USAGE_ARGS } from '../../bench/lib/child-usage.js';
import { nodeOptions, PEAK_RSS_ARGS, peakRssKib } from '../../bench/lib/peak-rss.js';
import { tempDir } from '../helpers/temp.js';

const MIB = 1024;
const child = (args: string[], env: Record<string, string>, script: string) =>
  spawnSync(process.execPath, [...args, '-e', script], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });

describe("a child's peak RSS is its own, not its parent's", () => {
  it('a bare child of a 256 MiB parent reports well under 256 MiB, and a child holding 160 MiB reports at least that', () => {
    const held = Buffer.alloc(256 * 2 ** 20, 1);
    expect(process.memoryUsage().rss / 2 ** 20).toBeGreaterThan(256);
    const ways = [
      { name: 'PEAK_RSS_ARGS in argv', run: (s: string) => peakRssKib(child(PEAK_RSS_ARGS, {}, s).stderr) },
      { name: 'PEAK_RSS_ARGS in NODE_OPTIONS', run: (s: string) => peakRssKib(child([], { NODE_OPTIONS: nodeOptions(PEAK_RSS_ARGS) }, s).stderr) },
      { name: 'USAGE_ARGS in argv', run: (s: string) => childUsage(child(USAGE_ARGS, {}, s).stderr).rssKib },
      { name: 'USAGE_ARGS in NODE_OPTIONS', run: (s: string) => childUsage(child([], { NODE_OPTIONS: nodeOptions(USAGE_ARGS) }, s).stderr).rssKib },
    ];
    for (const way of ways) {
      const bare = way.run('0');
      const holding = way.run('globalThis.b = Buffer.alloc(160 * 2 ** 20, 1)');
      expect(bare / MIB, way.name).toBeGreaterThan(10);
      expect(bare / MIB, way.name).toBeLessThan(128);
      expect(holding / MIB, way.name).toBeGreaterThan(160);
      expect(holding - bare, way.name).toBeGreaterThan(150 * MIB);
    }
    expect(held.length).toBe(256 * 2 ** 20);
  }, 30_000);
});

// The CPU benches measure a CommonJS entry (bin/adops.js) as users run it: the instrument must not start Node's ES
// module loader there (an `--import` preload did: ~16 ms of CPU a run that users' runs do not pay).
it('USAGE_ARGS leaves a CommonJS entry without the ES module loader, and still reports its CPU time', () => {
  const entry = join(tempDir('adops-usage-'), 'entry.cjs');
  writeFileSync(entry, `process.on('exit', () => console.log(process.moduleLoadList.filter((m) => m.includes('esm/module_job')).length));\n`);
  const r = spawnSync(process.execPath, [...USAGE_ARGS, entry], { env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout.trim()).toBe('0');
  expect(childUsage(r.stderr).cpuMs).toBeGreaterThan(0);
});

it('nodeOptions carries a preload whose path holds a space (a clone in "my projects")', () => {
  const dir = join(tempDir('adops-usage-'), 'my projects');
  mkdirSync(dir);
  for (const f of ['usage-at-exit.cjs', 'own-peak-rss.cjs']) copyFileSync(join(dirname(USAGE_ARGS[1]!), f), join(dir, f));
  const r = child([], { NODE_OPTIONS: nodeOptions(['--require', join(dir, 'usage-at-exit.cjs')]) }, '0');
  expect(r.status, r.stderr).toBe(0);
  expect(childUsage(r.stderr).cpuMs).toBeGreaterThan(0);
});
