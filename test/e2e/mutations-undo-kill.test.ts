// kill -9 during `mutations apply FILE --undo-file UNDO.csv` (the BUILT binary, answers held back
// so some changes are made and unanswered), then the same command again: the undo file always
// holds the inverse of every row that could have been sent (it was synced before the first POST,
// and the re-run keeps it rather than read the values the first run changed), and applying it
// restores every field.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { mutationsWorld } from '../sandbox/mutations/world.js';
import { allMutations, sandboxBehindProxy } from '../helpers/drop-proxy.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { baseEnv, BIN, ensureBuilt, ROOT, tempConfigDir } from '../helpers/cli.js';
import { TEST_FULL_KEY } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { changeFile, snapshot, TARGETS, type Change } from './undo-world.js';

const t = sandboxBehindProxy(mutationsWorld());
const dir = tempDir('adops-undo-kill-');
const cfg = tempConfigDir();
const env = () => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: t.proxy.url, ADOPS_API_KEY: TEST_FULL_KEY });
const WAIT = ['--wait', '--interval', '0.05'];
const posts = () => t.proxy.seen.filter((s) => s.method === 'POST').length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(() => ensureBuilt(), 120_000);

/** Every target renamed and paused: 18 rows, each with an inverse. */
const changes = (tag: string): Change[] =>
  TARGETS.flatMap((target, i): Change[] => [
    { target, action: 'rename', name: `${tag} ${i}` },
    { target, action: 'pause' },
  ]);

describe('mutations apply --undo-file, killed and run again', () => {
  // 0: killed once the undo file is there, before (or as) the first POST goes out.
  for (const killAfter of [0, 3, 9]) {
    it(`kill -9 after ${killAfter} POST(s): the undo file holds every row's inverse, the re-run keeps it, applying it restores every field`, async () => {
      const before = await snapshot(t.sb);
      const file = join(dir, `kill-${killAfter}.csv`);
      const undo = join(dir, `kill-${killAfter}-undo.csv`);
      const rows = changes(`kill${killAfter}`);
      writeFileSync(file, changeFile(rows));
      t.proxy.rule({ method: 'POST', path: '/mutations', action: 'delay-answer', delayMs: 400 });
      const child = spawn(process.execPath, [BIN, 'mutations', 'apply', file, '--undo-file', undo, '--concurrency', '2'], {
        cwd: ROOT,
        env: baseEnv(env()),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<void>((r) => child.on('close', () => r()));
      for (let i = 0; i < 400 && !(existsSync(undo) && posts() >= killAfter); i++) await sleep(10);
      child.kill('SIGKILL');
      await exited;
      expect(existsSync(undo)).toBe(true);
      // Changes were made before the kill (the service holds them), so the re-run's live values are not the ones before.
      const made = (await allMutations(t.sb, TEST_FULL_KEY)).filter(
        (m) => typeof m.changes.name === 'string' && m.changes.name.startsWith(`kill${killAfter} `),
      );
      if (killAfter > 0) expect(made.length).toBeGreaterThan(0);
      const written = readFileSync(undo, 'utf8');
      // One inverse per row, each naming its target's value before the run.
      const lines = written.trim().split('\n').slice(2);
      expect(lines).toHaveLength(rows.length);
      for (const r of before.filter((x) => TARGETS.some((tg) => tg.id === x.id))) expect(written).toContain(`,${String(r.id)},${String(r.name)},`);

      t.proxy.clearRules();
      const again = await runAdopsInProcess(['mutations', 'apply', file, '--undo-file', undo, ...WAIT], { env: env(), timeoutMs: 60_000 });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toMatch(/keeping the undo file/);
      expect(readFileSync(undo, 'utf8')).toBe(written);

      const back = await runAdopsInProcess(['mutations', 'apply', undo, ...WAIT], { env: env(), timeoutMs: 60_000 });
      expect(back.code, back.stderr).toBe(0);
      expect(await snapshot(t.sb)).toEqual(before);
    }, 90_000);
  }
});
