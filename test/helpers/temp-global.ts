// Global setup (vitest.config.ts): one root directory for the run's temporary
// files, removed at the end even when a worker died before its own cleanup.
// Each test file works in a directory of its own under it (temp-setup.ts).
// At the end, `adops-*` entries that appeared in the system temp dir during
// the run are reported: something wrote past TMPDIR (another process on the
// machine may have made them too, so this one only warns; the per-file check
// in temp-setup.ts is the one that fails).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_MODULE_CACHE } from './module-cache.js';

// Each vitest project runs this setup, so another project's run root may still be there at this one's end.
const adopsEntries = (dir: string) => new Set(readdirSync(dir).filter((name) => name.startsWith('adops-') && !name.startsWith('adops-test-run-')));

export default function setup(): () => void {
  const system = tmpdir();
  const before = adopsEntries(system);
  const root = mkdtempSync(join(system, 'adops-test-run-'));
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
