// The background refreshes a TAB starts (`adops __complete-refresh`, detached,
// src/cli/complete.ts) must not outlive the test that caused them, nor write
// into a config dir the test has removed. Each TAB that starts one notes its
// pid in `<config dir>/completion-cache/<scope>/<kind>.refresh` before it
// exits; these helpers wait for those pids to end, or end them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Each refresh note under `configDir` (`<scope>/<kind>.refresh`), in order, with its text (undefined: being rewritten). */
function* refreshNoteFiles(configDir: string): Generator<{ name: string; text: string | undefined }> {
  const root = join(configDir, 'completion-cache');
  if (!existsSync(root)) return;
  for (const scope of readdirSync(root).sort()) {
    let files: string[];
    try {
      files = readdirSync(join(root, scope));
    } catch {
      continue;
    }
    for (const f of files.filter((n) => n.endsWith('.refresh')).sort()) {
      let text: string | undefined;
      try {
        text = readFileSync(join(root, scope, f), 'utf8');
      } catch {
        text = undefined;
      }
      yield { name: `${scope}/${f}`, text };
    }
  }
}

/** The pids the TABs under `configDir` noted (each a refresh started, maybe long over). */
export function refreshPids(configDir: string): number[] {
  const pids: number[] = [];
  for (const { text } of refreshNoteFiles(configDir)) {
    try {
      const note: unknown = JSON.parse(text ?? '');
      const pid = typeof note === 'object' && note !== null && 'pid' in note ? note.pid : undefined;
      if (typeof pid === 'number' && pid !== process.pid) pids.push(pid);
    } catch {
      /* being rewritten: the next look reads it */
    }
  }
  return pids;
}

/**
 * Every refresh note under `configDir`, as text (each file's name and content): unchanged across a TAB means that
 * TAB started no refresh, i.e. it read a cache that was fresh (src/cli/complete.ts idsForTab notes every refresh
 * it starts, before starting it).
 */
export function refreshNotes(configDir: string): string {
  // A note being rewritten: a refresh is under way.
  return [...refreshNoteFiles(configDir)].map(({ name, text }) => `${name}:${text ?? '?'}`).join('\n');
}

/** Whether `pid` is still an `adops __complete-refresh` (ended, a zombie nobody reaped, or a pid reused since: no). */
export function running(pid: number): boolean {
  if (pid <= 1) return false;
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) return false;
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('__complete-refresh');
  } catch {
    return !existsSync('/proc/self'); // gone meanwhile; or no /proc at all: trust kill
  }
}

/** Wait until every refresh noted under `configDir` has ended; the ms waited. Throws past `ms`. */
export async function settleRefreshes(configDir: string, ms = 30_000): Promise<number> {
  const start = Date.now();
  for (;;) {
    const live = refreshPids(configDir).filter(running);
    if (live.length === 0) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`completion refreshes still running after ${ms} ms: ${live.join(', ')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** End every refresh noted under `configDir` (one kept waiting by a service that never answers), and wait for it. */
export async function endRefreshes(configDir: string): Promise<void> {
  for (const pid of refreshPids(configDir).filter(running)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* ended meanwhile */
    }
  }
  await settleRefreshes(configDir, 10_000);
}
