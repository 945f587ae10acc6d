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
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

beforeAll(() => ensureBuilt(), 120_000);

/** Every target renamed and paused: 18 rows, each with an inverse. */
const changes = (tag: string): Change[] =>
  TARGETS.flatMap((target, i): Change[] => [
    { target, action: 'rename', name: `${tag} ${i}` },
    { target, action: 'pause' },
  ]);

/**
 * One run of `mutations apply --undo-file` killed with SIGKILL once `killWhen` says so, then checked: the undo file is
 * there whenever a POST went out, holds every row's inverse, the re-run keeps it, and applying it restores every field.
 */
async function killedAndRunAgain(tag: string, killWhen: (undo: string, postsSince: () => number) => Promise<void>, why: string): Promise<void> {
  const before = await snapshot(t.sb);
  const file = join(dir, `${tag}.csv`);
  const undo = join(dir, `${tag}-undo.csv`);
  const rows = changes(tag);
  writeFileSync(file, changeFile(rows));
  t.proxy.rule({ method: 'POST', path: '/mutations', action: 'delay-answer', delayMs: 400 });
  const postsAtStart = posts();
  const child = spawn(process.execPath, [BIN, 'mutations', 'apply', file, '--undo-file', undo, '--concurrency', '2'], {
    cwd: ROOT,
    env: baseEnv(env()),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((r) => child.on('close', () => r()));
  await killWhen(undo, () => posts() - postsAtStart);
  child.kill('SIGKILL');
  await exited;
  t.proxy.clearRules();
  // Killed before the undo file was durable: nothing may have gone out.
  if (!existsSync(undo)) return void expect(posts() - postsAtStart, `${why}: a POST went out before the undo file was written`).toBe(0);
  const sent = posts() - postsAtStart;
  // Changes were made before the kill (the service holds them), so the re-run's live values are not the ones before.
  const made = (await allMutations(t.sb, TEST_FULL_KEY)).filter((m) => typeof m.changes.name === 'string' && m.changes.name.startsWith(`${tag} `));
  if (sent > 0) expect(made.length, why).toBeGreaterThan(0);
  const written = readFileSync(undo, 'utf8');
  // One inverse per row, each naming its target's value before the run.
  const lines = written.trim().split('\n').slice(2);
  expect(lines, why).toHaveLength(rows.length);
  for (const r of before.filter((x) => TARGETS.some((tg) => tg.id === x.id))) expect(written, why).toContain(`,${String(r.id)},${String(r.name)},`);
  const again = await runAdopsInProcess(['mutations', 'apply', file, '--undo-file', undo, ...WAIT], { env: env(), timeoutMs: 60_000 });
  expect(again.code, `${why}: ${again.stderr}`).toBe(0);
  expect(again.stderr, why).toMatch(/keeping the undo file/);
  expect(readFileSync(undo, 'utf8'), why).toBe(written);
  const back = await runAdopsInProcess(['mutations', 'apply', undo, ...WAIT], { env: env(), timeoutMs: 60_000 });
  expect(back.code, `${why}: ${back.stderr}`).toBe(0);
  expect(await snapshot(t.sb), why).toEqual(before);
}

describe('mutations apply --undo-file, killed and run again', () => {
  // 0: killed once the undo file is there, before (or as) the first POST goes out.
  for (const killAfter of [0, 3, 9]) {
    it(`kill -9 after ${killAfter} POST(s): the undo file holds every row's inverse, the re-run keeps it, applying it restores every field`, async () => {
      await killedAndRunAgain(
        `kill${killAfter}`,
        async (undo, sent) => {
          for (let i = 0; i < 400 && !(existsSync(undo) && sent() >= killAfter); i++) await sleep(10);
        },
        `killed after ${killAfter} POST(s)`,
      );
    }, 90_000);
  }

  // A moment nobody chose: from the start of the process (reading, the live read, the undo file's write) to the
  // last POSTs. ADOPS_KILL_SEED=N replays one.
  for (const round of [1, 2]) {
    it(`kill -9 at a random moment (round ${round}): whatever it cut, no change without its inverse on disk, and the undo restores every field`, async () => {
      const seed = Number(process.env.ADOPS_KILL_SEED ?? Math.floor(Math.random() * 2 ** 31));
      const atMs = seed % 2_500;
      await killedAndRunAgain(`random${round}`, () => sleep(atMs), `seed ${seed} (killed ${atMs} ms after spawn; replay: ADOPS_KILL_SEED=${seed})`);
    }, 90_000);
  }
});
