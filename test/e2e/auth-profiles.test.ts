// Which profile a login touches and which organization `auth status` shows,
// against the demo sandbox in this process; `sandbox serve --login acme` (the
// profile it names and the organization it records) as a child, as a user runs it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO, startSandboxChild, tempConfigDir } from '../helpers/cli.js';
import { useDemoSandbox } from '../helpers/demo-sandbox.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';

const sandbox = useDemoSandbox();

const configOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as {
    currentProfile?: string;
    profiles: Record<string, { apiKey?: string; organization?: string }>;
  };
const login = (dir: string, key: string, extra: string[] = []) =>
  runAdopsInProcess(['auth', 'login', '--with-key', '--url', sandbox.url, ...extra], { env: { ADOPS_CONFIG_DIR: dir }, stdin: key });

describe('auth login and the default profile', () => {
  it('the first login becomes the default; a login to a named profile leaves the default alone and says which it is', async () => {
    const dir = tempConfigDir();
    const first = await login(dir, DEMO.full, ['--profile', 'acme']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/"acme" is the default profile/);
    expect(configOf(dir).currentProfile).toBe('acme');

    const second = await login(dir, DEMO.globex, ['--profile', 'globex']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/the default profile is still "acme"/);
    expect(configOf(dir).currentProfile).toBe('acme');
    // The next command without --profile reads Acme's data, not Globex's.
    const status = JSON.parse((await runAdopsInProcess(['auth', 'status', '--json'], { env: { ADOPS_CONFIG_DIR: dir } })).stdout);
    expect(status).toMatchObject({ profile: 'acme', key: expect.stringMatching(/^acr_…/) });

    const asked = await login(dir, DEMO.globex, ['--profile', 'globex', '--set-default']);
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stderr).toMatch(/"globex" is the default profile/);
    expect(configOf(dir).currentProfile).toBe('globex');
  });
});

describe('auth status shows what the key in use resolves to', () => {
  it("ADOPS_API_KEY over a stored profile: not the stored profile's organization", async () => {
    const dir = tempConfigDir();
    const served = await startSandboxChild(['--login', 'acme'], { ADOPS_CONFIG_DIR: dir });
    try {
      const stored = JSON.parse((await runAdopsInProcess(['auth', 'status', '--json'], { env: { ADOPS_CONFIG_DIR: dir } })).stdout);
      expect(stored.organization).toBe(configOf(dir).profiles.acme!.organization);
      expect(stored.organization).toBeTruthy();
      const env = { ADOPS_CONFIG_DIR: dir, ADOPS_API_KEY: DEMO.globex };
      const r = await runAdopsInProcess(['auth', 'status', '--json'], { env });
      expect(JSON.parse(r.stdout)).toMatchObject({ keySource: 'env', organization: null });
      const text = await runAdopsInProcess(['auth', 'status', '--output', 'table'], { env });
      expect(text.stdout).toMatch(/Organization: \(not known for the key from ADOPS_API_KEY/);
      expect(text.stdout).not.toContain(stored.organization);
      // The same key as the stored one: its organization is known.
      const same = await runAdopsInProcess(['auth', 'status', '--json'], {
        env: { ADOPS_CONFIG_DIR: dir, ADOPS_API_KEY: configOf(dir).profiles.acme!.apiKey! },
      });
      expect(JSON.parse(same.stdout).organization).toBe(stored.organization);
      // A new key for the profile drops the organization recorded with the old one.
      expect((await login(dir, DEMO.globex, ['--profile', 'acme'])).code).toBe(0);
      expect(configOf(dir).profiles.acme!.organization).toBeUndefined();
    } finally {
      await served.stop();
    }
  }, 60_000);
});
