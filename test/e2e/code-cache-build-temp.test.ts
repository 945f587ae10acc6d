// The build's scripts that work in a temporary directory remove it as their process exits — also when a step fails:
// the code-cache makers (scripts/code-cache-after-command.mjs, shared by the sync and apply bundles' makers, and
// code-cache-after-read.mjs) when the bundle cannot be loaded, as when a second build rewrote dist/bundle under them
// (their removal was registered only after the bundle loaded: a test file that rebuilt then failed for what they left
// in its temp dir), and build:sea's own download cache (~130 MB of Node) when any step fails (removed only at the end
// of a build that wrote the executable).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { baseEnv, ensureBuilt, ROOT } from '../helpers/cli.js';
import { spawnAsync } from '../helpers/spawn-async.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(() => ensureBuilt());

async function leftIn(script: string, args: string[], env: Record<string, string> = {}) {
  const tmp = tempDir('adops-build-temp-');
  const r = await spawnAsync(process.execPath, [join(ROOT, 'scripts', script), ...args.map((a) => a.replace('TMP', tmp))], {
    cwd: ROOT,
    env: baseEnv({ TMPDIR: tmp, ...env }),
    timeout: 60_000,
  });
  return { status: r.status, stderr: r.stderr, left: readdirSync(tmp) };
}

it('a bundle that cannot be loaded: each code-cache maker fails and leaves no temporary directory', async () => {
  const made = await Promise.all([
    leftIn('code-cache-after-apply.mjs', ['TMP/no-such-bundle.cjs']),
    leftIn('code-cache-after-read.mjs', ['TMP/no-such-bundle.cjs', '--npm']),
  ]);
  for (const r of made) {
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('no-such-bundle.cjs');
    expect(r.left).toEqual([]);
  }
});

it('build:sea failing at its first step leaves no download cache of its own', async () => {
  const r = await leftIn('build-sea.mjs', [], { ADOPS_SEA_NODE: '/nonexistent/node' });
  expect(r.status).not.toBe(0);
  expect(r.stderr).toContain('ADOPS_SEA_NODE names no file');
  expect(r.left).toEqual([]);
});
