// The lock on local state: exclusive, names its holder, frees itself, and a
// lock left by a dead or silent holder is taken over (once, by one taker).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock, LockHeldError } from '../../../src/state/lock.js';
import { ensureBuilt } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

const lockPath = () => join(tempDir('adops-lock-'), 'x.lock');
const deadPid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

/**
 * Reads the lock file as fast as it can while a child process (the built module: a child cannot
 * load TypeScript) runs `loop` with acquireLock in scope; how many reads found it, and how many
 * of those could not be parsed.
 */
async function readWhileRacing(p: string, loop: string): Promise<{ seen: number; unreadable: number }> {
  ensureBuilt();
  const built = new URL('../../../dist/state/lock.js', import.meta.url).href;
  const child = spawn(process.execPath, ['--input-type=module', '-e', `import('${built}').then(async ({ acquireLock }) => { ${loop} })`], { stdio: 'ignore' });
  let finished = false;
  const done = new Promise((r) => child.on('exit', r)).then(() => (finished = true));
  let seen = 0;
  let unreadable = 0;
  while (!finished) {
    try {
      const text = readFileSync(p, 'utf8');
      seen++;
      try {
        JSON.parse(text);
      } catch {
        unreadable++;
      }
    } catch {
      /* not held right now */
    }
    await new Promise((r) => setImmediate(r));
  }
  await done;
  return { seen, unreadable };
}

describe('acquireLock', () => {
  it('a lock file never exists without its holder in it (a waiter always names who holds it), and leaves no temp file', async () => {
    const p = lockPath();
    // Another process takes and frees the lock as fast as it can while this one reads the file.
    const { seen, unreadable } = await readWhileRacing(
      p,
      `for (let i = 0; i < 400; i++) (await acquireLock('${p}', { wait: false, what: 'racer' })).release();`,
    );
    expect(seen).toBeGreaterThan(0);
    expect(unreadable).toBe(0);
    expect(readdirSync(join(p, '..'))).toEqual([]);
  });

  it('is exclusive; without waiting the second fails naming pid, host and what holds it', async () => {
    const p = lockPath();
    const lock = await acquireLock(p, { wait: false, what: 'adops test' });
    expect(JSON.parse(readFileSync(p, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname(), what: 'adops test' });
    const err = await acquireLock(p, { wait: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockHeldError);
    expect((err as Error).message).toMatch(new RegExp(`held by pid ${process.pid} on .+ \\(adops test\\)`));
    lock.release();
    expect(existsSync(p)).toBe(false);
    (await acquireLock(p, { wait: false })).release();
  });

  it('a waiter is told once and gets the lock when it is released; Ctrl-C stops the wait', async () => {
    const p = lockPath();
    const first = await acquireLock(p, { wait: true });
    const told: unknown[] = [];
    const second = acquireLock(p, { wait: true, pollMs: 20, onWait: (h) => told.push(h) });
    await new Promise((r) => setTimeout(r, 150));
    expect(told).toHaveLength(1);
    first.release();
    (await second).release();
    const held = await acquireLock(p, { wait: true });
    const ac = new AbortController();
    const waiting = acquireLock(p, { wait: true, signal: ac.signal });
    ac.abort();
    await expect(waiting).rejects.toThrow();
    held.release();
  });

  it('takes over a lock whose pid is gone on this host, and one not touched for staleMs', async () => {
    const p = lockPath();
    writeFileSync(p, JSON.stringify({ pid: deadPid(), host: hostname(), since: 1, token: 'dead' }));
    (await acquireLock(p, { wait: false })).release();

    writeFileSync(p, JSON.stringify({ pid: 1, host: 'another-host', since: 1, token: 'far' }));
    await expect(acquireLock(p, { wait: false, staleMs: 60_000 })).rejects.toBeInstanceOf(LockHeldError); // fresh: alive
    utimesSync(p, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    const lock = await acquireLock(p, { wait: false, staleMs: 60_000 });
    expect(JSON.parse(readFileSync(p, 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('of many takers of one stale lock, exactly one holds it at a time', async () => {
    const p = lockPath();
    writeFileSync(p, JSON.stringify({ pid: deadPid(), host: hostname(), since: 1, token: 'dead' }));
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        const lock = await acquireLock(p, { wait: true, pollMs: 5 });
        inside++;
        most = Math.max(most, inside);
        await new Promise((r) => setTimeout(r, 10));
        inside--;
        lock.release();
      }),
    );
    expect(most).toBe(1);
  });
});

describe('acquireLock with sharedHolder (#27: no new file per lock)', () => {
  it('locks of one process in one directory are links to one holder file; a waiter names it; nothing left once all are freed', async () => {
    const dir = tempDir('adops-lock-');
    const a = await acquireLock(join(dir, 'a.lock'), { wait: false, what: 'adops upload', sharedHolder: true });
    const b = await acquireLock(join(dir, 'b.lock'), { wait: false, what: 'adops upload', sharedHolder: true });
    expect(statSync(join(dir, 'a.lock')).ino).toBe(statSync(join(dir, 'b.lock')).ino);
    expect(readdirSync(dir).filter((n) => !n.endsWith('.lock'))).toHaveLength(1); // the holder file
    await expect(acquireLock(join(dir, 'a.lock'), { wait: false, sharedHolder: true })).rejects.toThrow(
      new RegExp(`held by pid ${process.pid} on .+ \\(adops upload\\)`),
    );
    a.release();
    expect(readdirSync(dir).sort()).toEqual([expect.stringMatching(/^\.adops-holder-/), 'b.lock']);
    b.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a lock file never exists without its holder in it while another process takes and frees it', async () => {
    const p = lockPath();
    const { seen, unreadable } = await readWhileRacing(
      p,
      `const o = { wait: false, what: 'racer', sharedHolder: true }; const end = Date.now() + 600; while (Date.now() < end) { const other = await acquireLock('${p}.other', o); (await acquireLock('${p}', o)).release(); other.release(); }`,
    );
    expect(seen).toBeGreaterThan(0);
    expect(unreadable).toBe(0);
    expect(readdirSync(join(p, '..'))).toEqual([]);
  });

  it('a holder file left by a run that did not exit (dead pid, or not touched for staleMs) is removed by the next', async () => {
    const dir = tempDir('adops-lock-');
    const dead = join(dir, '.adops-holder-1-dead');
    writeFileSync(dead, JSON.stringify({ pid: deadPid(), host: hostname(), since: 1, token: 'dead' }));
    const far = join(dir, '.adops-holder-2-far');
    writeFileSync(far, JSON.stringify({ pid: 1, host: 'another-host', since: 1, token: 'far' }));
    utimesSync(far, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    const alive = join(dir, '.adops-holder-3-alive');
    writeFileSync(alive, JSON.stringify({ pid: 1, host: 'another-host', since: 1, token: 'alive' }));
    const lock = await acquireLock(join(dir, 'x.lock'), { wait: false, sharedHolder: true, staleMs: 60_000 });
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(far)).toBe(false);
    expect(existsSync(alive)).toBe(true);
    lock.release();
  });
});
