// Data and config under one name (issue #18 item 13): the sandbox's default
// store lives in XDG_DATA_HOME/adops, beside XDG_CONFIG_HOME/adops, and a store
// left under the old name (env-paths' "adops-nodejs") is moved there once.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { defaultDataPath, startSandbox } from '../../src/sandbox/index.js';
import { configDir } from '../../src/state/config-store.js';
import { ensureBuilt } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { minimalWorld, TEST_FULL_KEY } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(() => ensureBuilt());

it('moves a store from ~/.local/share/adops-nodejs to ~/.local/share/adops, once, and uses it', async () => {
  const home = tempDir('adops-xdg-');
  const env = { HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };
  const legacy = join(home, 'data', 'adops-nodejs', 'sandbox.db');
  // A store written by an older adops: a world of its own (not the demo's keys).
  const old = await startSandbox({ host: '127.0.0.1', port: 0, data: legacy, quiet: true, world: minimalWorld() });
  await old.close();

  const first = await runAdopsInProcess(['sandbox', 'keys', '-o', 'json'], { env });
  expect(first.code, first.stderr).toBe(0);
  expect(first.stderr).toContain(`moved the sandbox's data from ${join(home, 'data', 'adops-nodejs')} to ${join(home, 'data', 'adops')}`);
  expect((JSON.parse(first.stdout) as Array<{ key: string }>).map((k) => k.key)).toEqual([TEST_FULL_KEY]);
  expect(existsSync(join(home, 'data', 'adops', 'sandbox.db'))).toBe(true);
  expect(existsSync(join(home, 'data', 'adops', 'sandbox.db-files'))).toBe(true);
  expect(existsSync(join(home, 'data', 'adops-nodejs'))).toBe(false);

  const again = await runAdopsInProcess(['sandbox', 'keys', '-o', 'json'], { env });
  expect(again.stderr).not.toContain('moved');
  expect(again.stdout).toBe(first.stdout);
});

it("the default store is under the config's name, adops", () => {
  expect(defaultDataPath({ XDG_DATA_HOME: '/x/data' })).toBe('/x/data/adops/sandbox.db');
  expect(defaultDataPath({ HOME: '/home/u' })).toBe('/home/u/.local/share/adops/sandbox.db');
  expect(configDir({ HOME: '/home/u' })).toBe('/home/u/.config/adops');
});
