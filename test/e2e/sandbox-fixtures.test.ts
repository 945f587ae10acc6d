// A bad --fixtures file for `adops sandbox serve` (BUILT binary) is the user's
// input, not a bug: exit 2 naming the file and the field, no server started.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { minimalWorld } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('adops-fixtures-');
const serve = (file: string) =>
  runAdopsInProcess(['sandbox', 'serve', '--port', '0', '--data', ':memory:', '--fixtures', file], {
    env: { ADOPS_CONFIG_DIR: tempConfigDir() },
    timeoutMs: 20_000,
  });

beforeAll(() => ensureBuilt());

describe('sandbox serve --fixtures with a bad file', () => {
  it('missing: exit 2 naming the file', async () => {
    const r = await serve(join(dir, 'nowhere.json'));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/cannot read fixture file .*nowhere\.json/);
    expect(r.stderr).not.toMatch(/bug in adops|unexpected/);
    expect(r.stdout).toBe('');
  });

  it('not JSON: exit 2 naming the file', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{"organizations": [');
    const r = await serve(file);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/fixture file .*broken\.json is not valid JSON/);
    expect(r.stderr).not.toMatch(/bug in adops/);
  });

  it('a key without acr_: exit 2 naming the field', async () => {
    const world = minimalWorld() as unknown as { apiKeys: Array<{ key: string }> };
    world.apiKeys[0]!.key = 'sk_live_not_ours_0001';
    const file = join(dir, 'badkey.json');
    writeFileSync(file, JSON.stringify(world));
    const r = await serve(file);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/badkey\.json is not a valid sandbox world/);
    expect(r.stderr).toMatch(/\/apiKeys\/0\/key: must start with acr_/);
    expect(r.stderr).not.toMatch(/bug in adops/);
  });
});
