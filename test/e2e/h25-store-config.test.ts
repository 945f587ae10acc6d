// The config file as one local store (#25 section 2): concurrent writers on one
// config dir each keep their change, profiles are looked up among the file's
// own keys, a disk that refuses a write is a plain error naming the directory,
// and an environment variable set but empty is never a silent "default".
// The concurrent writers are the BUILT binary, spawned many times at once (one
// process each, as two shells would run them); the look-ups, which read the file
// and never write it, run in this process against one logged-in config dir.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runAdops, tempConfigDir, type RunResult } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { tempDir } from '../helpers/temp.js';

const KEY = (n: number) => `acr_store_test_key_${String(n).padStart(4, '0')}`;
// --no-verify: what is under test is the store, not the service (nothing listens on port 9).
const login = (dir: string, profile: string, n: number) =>
  runAdops(['auth', 'login', '--profile', profile, '--with-key', '--no-verify', '--url', 'http://127.0.0.1:9'], {
    env: { ADOPS_CONFIG_DIR: dir },
    stdin: KEY(n),
  });
/** The same login in this process: a test's set-up or a lone run, not one of the writers that race. */
const loginHere = (dir: string, profile: string, n: number) =>
  runAdopsInProcess(['auth', 'login', '--profile', profile, '--with-key', '--no-verify', '--url', 'http://127.0.0.1:9'], {
    env: { ADOPS_CONFIG_DIR: dir },
    stdin: KEY(n),
  });
const configOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { profiles: Record<string, { apiKey?: string }>; settings: Record<string, unknown> };
const ok = (r: RunResult) => expect(r.code, r.stderr).toBe(0);

beforeAll(() => ensureBuilt(), 120_000);

describe('concurrent writes to one config dir', () => {
  it('8 logins at once to 8 profiles keep all 8', async () => {
    const dir = tempConfigDir();
    const runs = await Promise.all(Array.from({ length: 8 }, (_, i) => login(dir, `p${i}`, i)));
    runs.forEach(ok);
    const profiles = configOf(dir).profiles;
    expect(Object.keys(profiles).sort()).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']);
    for (let i = 0; i < 8; i++) expect(profiles[`p${i}`]!.apiKey).toBe(KEY(i));
  }, 60_000);

  it('a login beside `config set` keeps both writes, round after round', async () => {
    for (let round = 0; round < 5; round++) {
      const dir = tempConfigDir();
      ok(await loginHere(dir, 'base', 0));
      const [a, b] = await Promise.all([
        login(dir, `other${round}`, round + 1),
        runAdops(['config', 'set', 'request-timeout', String(40 + round)], { env: { ADOPS_CONFIG_DIR: dir } }),
      ]);
      ok(a);
      ok(b);
      const c = configOf(dir);
      expect(c.profiles[`other${round}`]?.apiKey, `round ${round}`).toBe(KEY(round + 1));
      expect(c.settings['request-timeout'], `round ${round}`).toBe(40 + round);
    }
  }, 60_000);
});

// One config dir with one profile for the nine look-ups below (a login each was 9 spawns of ~0.5 s of CPU): each
// reads it and ends in exit 2 before anything could write it, and the last test checks that it is as logged in.
const loggedIn = tempConfigDir();
const loggedInFile = () => readFileSync(join(loggedIn, 'config.json'), 'utf8');
let asLoggedIn = '';
describe('look-ups in a config dir with one profile', () => {
  beforeAll(async () => {
    ok(await loginHere(loggedIn, 'acme', 1));
    asLoggedIn = loggedInFile();
  }, 60_000);

  describe('profiles are the file’s own keys', () => {
    it.each(['constructor', 'toString', 'hasOwnProperty', '__proto__', 'nosuch'])('--profile %s is exit 2 unknown_profile', async (name) => {
      const r = await runAdopsInProcess(['auth', 'status', '--profile', name, '--json'], { env: { ADOPS_CONFIG_DIR: loggedIn } });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/unknown_profile|no profile named/);
    });
  });

  describe('an environment variable set but empty', () => {
    it.each(['ADOPS_BASE_URL', 'ADOPS_API_KEY', 'ADOPS_PROFILE', 'ADOPS_CONFIG_DIR'])('%s="" is exit 2 naming it', async (name) => {
      const r = await runAdopsInProcess(['auth', 'status', '--json'], { env: { ADOPS_CONFIG_DIR: loggedIn, [name]: '' } });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(name);
      expect(r.stderr).not.toMatch(/127\.0\.0\.1:4010/);
    });
  });

  it('the profile is still there and usable (the look-ups wrote nothing)', async () => {
    expect(loggedInFile()).toBe(asLoggedIn);
    const r = await runAdopsInProcess(['auth', 'status', '--profile', 'acme', '--json'], { env: { ADOPS_CONFIG_DIR: loggedIn } });
    expect(r.stderr).not.toMatch(/unknown_profile|no profile named|set but empty/);
  });
});

describe('a config dir the disk will not take', () => {
  // Tests run as root, which chmod does not stop: a path THROUGH a regular file
  // fails for root too (ENOTDIR), on every file system and in every container.
  const underAFile = () => {
    const file = join(tempDir('adops-store-'), 'a-file');
    writeFileSync(file, 'not a directory');
    return join(file, 'config');
  };

  // In this process: a refused write is judged by the runner's report (cli/report.ts), not by anything a process adds.
  it('auth login: exit 1 naming the directory, not "a bug in adops"', async () => {
    const dir = underAFile();
    const r = await loginHere(dir, 'acme', 1);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(dir);
    expect(r.stderr).toMatch(/cannot write the config file/);
    expect(r.stderr).not.toMatch(/bug in adops/);
    expect(r.stderr).not.toContain(KEY(1));
  });

  it('config set: exit 1 naming the directory', async () => {
    const dir = underAFile();
    const r = await runAdopsInProcess(['config', 'set', 'retries', '2'], { env: { ADOPS_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(dir);
    expect(r.stderr).not.toMatch(/bug in adops/);
  });
});
