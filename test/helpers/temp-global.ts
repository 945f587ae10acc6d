// Global setup (vitest.config.ts): one root directory for the run's temporary
// files, removed at the end even when a worker died before its own cleanup.
// Each test file works in a directory of its own under it (temp-setup.ts).
// At the end, `adops-*` entries that appeared in the system temp dir during
// the run are reported: something wrote past TMPDIR (another process on the
// machine may have made them too, so this one only warns; the per-file check
// in temp-setup.ts is the one that fails).
//
// The root is on tmpfs when the machine has one with room (Linux's /dev/shm):
// the suite's durable writes (journals, config, uploads' state: fsync, rename,
// the directory's fsync) and its thousands of temporary directories cost a
// disk's latency on ext4 and almost nothing there (paired whole runs, #37
// session 9: 194 -> 187 s; the contract fuzzer's file 16-19 -> 13-17 s). What
// the tests check of those writes is the same on either: a kill -9 loses a
// process, not the machine. Elsewhere (no /dev/shm, a small one as in a
// container's 64 MB default) it is the system temp dir as before.
import { accessSync, constants, mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_MODULE_CACHE } from './module-cache.js';

// Each vitest project runs this setup, so another project's run root may still be there at this one's end.
const adopsEntries = (dir: string) => new Set(readdirSync(dir).filter((name) => name.startsWith('adops-') && !name.startsWith('adops-test-run-')));

/** tmpfs with at least this much free: the largest files a test writes are ~120 MB, a few at once. */
const TMPFS_ROOM = 2 * 2 ** 30;

/** Where the run's root goes: /dev/shm when it is a writable tmpfs with room, else the system temp dir. */
export function runTempBase(system = tmpdir()): string {
  const shm = '/dev/shm';
  try {
    accessSync(shm, constants.W_OK);
    const fs = statfsSync(shm);
    // 0x01021994: TMPFS_MAGIC, the type statfs(2) gives a tmpfs.
    if (fs.type === 0x01021994 && fs.bavail * fs.bsize >= TMPFS_ROOM) return shm;
  } catch {
    // No /dev/shm here (macOS, Windows) or none we may write: the system temp dir.
  }
  return system;
}

export default function setup(): () => void {
  const system = tmpdir();
  const before = adopsEntries(system);
  const root = mkdtempSync(join(runTempBase(system), 'adops-test-run-'));
  process.env.ADOPS_TEST_TMP_ROOT = root;
  return () => {
    rmSync(root, { recursive: true, force: true });
    // Every project's teardown runs once all files have run: the first one removes the run's transforms.
    rmSync(RUN_MODULE_CACHE, { recursive: true, force: true });
    const appeared = [...adopsEntries(system)].filter((name) => !before.has(name));
    if (appeared.length > 0)
      process.stderr.write(
        `\nwarning: ${appeared.length} adops-* entries appeared in ${system} during the run (written past TMPDIR?): ${appeared.slice(0, 20).join(', ')}\n`,
      );
  };
}
