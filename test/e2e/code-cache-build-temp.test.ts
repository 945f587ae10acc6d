// The build's code-cache makers (scripts/code-cache-after-command.mjs, shared by the sync and apply bundles' makers)
// work in one temporary directory, removed as their process exits — also when the bundle cannot be loaded, as when a
// second build rewrote dist/bundle under it: the directory was then left behind (its removal was registered only after
// the bundle loaded), and a test file that rebuilt failed for what it left in its temp dir.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { baseEnv, ensureBuilt, ROOT } from '../helpers/cli.js';
import { spawnAsync } from '../helpers/spawn-async.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(() => ensureBuilt());

it('a bundle that cannot be loaded: the maker fails and leaves no temporary directory', async () => {
  const tmp = tempDir('adops-cache-maker-');
  const r = await spawnAsync(process.execPath, [join(ROOT, 'scripts', 'code-cache-after-apply.mjs'), join(tmp, 'no-such-bundle.cjs')], {
    cwd: ROOT,
    env: baseEnv({ TMPDIR: tmp }),
    timeout: 60_000,
  });
  expect(r.status).not.toBe(0);
  expect(r.stderr).toContain('no-such-bundle.cjs');
  expect(readdirSync(tmp)).toEqual([]);
});
