// Files of the local store read back (issue #34, section 3). A config file
// adops cannot use as written (not JSON, JSON of another shape, a setting of
// the wrong type) is exit 2, `local_state_corrupt`, naming the file and what is
// wrong; one the disk will not let it read (a directory where the file should
// be, no permission) is exit 1, `local_state_unreadable`. Never "a bug in
// adops", and nothing lost: a command that writes config leaves such a file as
// it was, and keys a newer adops wrote are kept. The journals are read the same
// way (one that cannot be read is never read as empty: its work would be done
// twice); a plan marker that cannot be read is taken over, as it only ever
// allowed deleting a draft of its own run.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { serviceScope } from '../../src/state/fingerprint.js';
import { PlanApplyMarkers } from '../../src/state/plan-markers.js';
import { baseEnv, BIN, DEMO, ensureBuilt, ROOT, tempConfigDir } from '../helpers/cli.js';
import { SOCIAL_LINE_ITEM } from '../helpers/plans.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { DEMO_WORLD, useTestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { png } from '../unit/uploads/media-samples.js';

const sb = useTestSandbox({ world: DEMO_WORLD });

/** A config dir holding `text` as config.json. */
function configWith(text: string): { dir: string; file: string } {
  const dir = tempConfigDir();
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'config.json');
  writeFileSync(file, text);
  return { dir, file };
}

/** Every command that writes the config file (sandbox serve --login aside: it runs a server). */
const WRITERS: Array<{ args: string[]; stdin?: string }> = [
  { args: ['config', 'set', 'retries', '2'] },
  { args: ['auth', 'login', '--with-key', '--no-verify', '--url', 'http://127.0.0.1:9'], stdin: 'acr_h34_login_key_0001' },
  { args: ['auth', 'switch', 'default'] },
  { args: ['auth', 'logout'] },
];

/** Forms of a config file adops cannot use, and what the error says is wrong. */
const CORRUPT: Array<[string, string, RegExp]> = [
  ['not JSON', '{"profiles": {"default": {"apiKey": "acr_h34_cut', /is not JSON \(line 1, column \d+\)/],
  ['an array', '[{"profiles": {}}]', /the whole file must be an object \(it is an array\)/],
  ['a JSON string', '"acr_h34_a_string_0001"', /the whole file must be an object \(it is a string\)/],
  ['profiles as an array', '{"profiles": [{"baseUrl": "https://ads.example"}]}', /profiles must be an object of profiles by name \(it is an array\)/],
  ['a key of the wrong type', '{"profiles": {"default": {"apiKey": 42}}}', /profiles\.default\.apiKey must be a string \(it is a number\)/],
  ['a setting of the wrong type', '{"profiles": {}, "settings": {"retries": "5"}}', /settings\.retries must be a number \(it is a string\)/],
  ['a setting out of range', '{"profiles": {}, "settings": {"retry-budget": -1}}', /settings\.retry-budget must be a number of 0 or more/],
  ['currentProfile of the wrong type', '{"currentProfile": 3, "profiles": {}}', /currentProfile must be a string \(it is a number\)/],
];

describe('a config file adops cannot use as written', () => {
  for (const [what, text, said] of CORRUPT) {
    it(`${what}: every command is exit 2 naming the file and the problem; the writers leave it as it was`, async () => {
      const { dir, file } = configWith(text);
      for (const { args, stdin } of [{ args: ['config', 'list'] }, ...WRITERS]) {
        const r = await runAdopsInProcess(args, { env: { ADOPS_CONFIG_DIR: dir }, ...(stdin !== undefined ? { stdin } : {}) });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toContain(`error: local_state_corrupt: the config file ${file} `);
        expect(r.stderr).toMatch(said);
        expect(r.stderr).toMatch(/hint: fix it by hand, or move it aside \(mv .*config\.json .*config\.json\.bad\) and log in again/);
        expect(r.stderr).not.toMatch(/bug in adops|acr_h34/);
        expect(readFileSync(file, 'utf8'), args.join(' ')).toBe(text);
        expect(readdirSync(dir)).toEqual(['config.json']);
      }
    });
  }

  it('--json: one error object with the code, exit code 2, and the hint', async () => {
    const { dir } = configWith('[]');
    const r = await runAdopsInProcess(['config', 'list', '--json'], { env: { ADOPS_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error).toMatchObject({
      code: 'local_state_corrupt',
      exitCode: 2,
      retryable: false,
      hint: expect.stringMatching(/^fix it by hand/),
    });
  });

  it('keys a newer adops wrote, at any level, are kept by a write', async () => {
    const { dir, file } = configWith(
      JSON.stringify({
        profiles: { default: { baseUrl: 'https://ads.example', region: 'eu' } },
        settings: { 'future-setting': 'x' },
        telemetry: { on: false },
      }),
    );
    const r = await runAdopsInProcess(['config', 'set', 'retries', '2'], { env: { ADOPS_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      profiles: { default: { baseUrl: 'https://ads.example', region: 'eu' } },
      settings: { 'future-setting': 'x', retries: 2 },
      telemetry: { on: false },
    });
  });
});

describe('a config file the disk will not let adops read', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('a directory where config.json should be: exit 1 naming it; no command writes over it', async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'config.json');
    mkdirSync(file, { recursive: true });
    for (const { args, stdin } of [{ args: ['config', 'list'] }, ...WRITERS]) {
      const r = await runAdopsInProcess(args, { env: { ADOPS_CONFIG_DIR: dir }, ...(stdin !== undefined ? { stdin } : {}) });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toContain(`error: local_state_unreadable: cannot read the config file ${file} (EISDIR: a directory is where the file should be)`);
      expect(r.stderr).toContain(`hint: move ${file} aside (it is a directory)`);
      expect(r.stderr).not.toMatch(/bug in adops/);
      expect(statSync(file).isDirectory()).toBe(true);
      expect(readdirSync(dir)).toEqual(['config.json']);
    }
  });

  it('no permission to read it (as an unprivileged user): exit 1 naming it, the file as it was', () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'config.json');
    const text = '{"profiles": {"default": {"apiKey": "acr_h34_private_0001"}}}\n';
    writeFileSync(file, text);
    chmodSync(file, 0o000);
    // Root reads a 0000 file all the same: the binary runs as nobody then, every directory above it passable. A
    // copy of the built CLI (bin/, dist/bundle/, package.json: what `config set` loads) is what nobody runs, in
    // the test's own temp dir: the checkout may sit where nobody cannot go (a 0700 home, mktemp's 0700 dir).
    const root = process.getuid?.() === 0;
    const top = dirname(process.env.ADOPS_TEST_TMP_ROOT ?? tmpdir());
    const passable = (from: string) => {
      for (let d = from; d !== top && d !== dirname(d); d = dirname(d)) chmodSync(d, statSync(d).mode | 0o011);
    };
    let bin = BIN;
    if (root) {
      passable(dir);
      const app = tempDir('adops-h34-app-');
      cpSync(join(ROOT, 'bin'), join(app, 'bin'), { recursive: true });
      cpSync(join(ROOT, 'dist', 'bundle'), join(app, 'dist', 'bundle'), { recursive: true });
      cpSync(join(ROOT, 'package.json'), join(app, 'package.json'));
      // The copies keep the build's modes (readable by all); mkdtemp made only their folder 0700.
      chmodSync(app, 0o755);
      passable(app);
      bin = join(app, 'bin', 'adops.js');
    }
    const r = spawnSync(process.execPath, [bin, 'config', 'set', 'retries', '2'], {
      cwd: ROOT,
      env: baseEnv({ ADOPS_CONFIG_DIR: dir, HOME: dir }),
      encoding: 'utf8',
      ...(root ? { uid: 65534, gid: 65534 } : {}),
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain(`error: local_state_unreadable: cannot read the config file ${file} (EACCES: permission denied)`);
    expect(r.stderr).toContain(`hint: make ${file} readable by this user`);
    expect(r.stderr).not.toMatch(/bug in adops/);
    chmodSync(file, 0o600);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});

describe('the journals read back', () => {
  const env = (cfg = tempConfigDir()) => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: DEMO.full });

  it('mutations apply --dry-run with a directory where its journal should be: exit 1 naming it, nothing sent', async () => {
    const work = tempDir('adops-h34-journal-');
    const file = join(work, 'changes.csv');
    writeFileSync(file, 'advertiserId,action,targetType,targetId,name\nacc_acme_a_001,rename,campaign,cmp_x,New name\n');
    const journal = join(work, 'journal.ndjson');
    mkdirSync(journal);
    const r = await runAdopsInProcess(['mutations', 'apply', file, '--journal', journal, '--dry-run'], { env: env() });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`error: local_state_unreadable: cannot read the journal of \`mutations apply\` ${journal} (EISDIR`);
    expect(r.stderr).not.toMatch(/bug in adops/);
  });

  it('assets upload whose upload journal entry is a directory: exit 1 naming it, never blamed on the file, nothing reserved', async () => {
    const cfg = tempConfigDir();
    const p = join(tempDir('adops-h34-upload-'), 'hero.png');
    writeFileSync(p, png(6, 6));
    expect((await runAdopsInProcess(['assets', 'upload', p], { env: env(cfg) })).code).toBe(0);
    // The scope's store file (uploads/<scope>/contents.json, the content's entries in it), replaced by a directory.
    const entries = readdirSync(join(cfg, 'uploads'), { recursive: true, encoding: 'utf8' }).filter((f) => /^[0-9a-f]+\/contents\.json$/.test(f));
    expect(entries).toHaveLength(1);
    const entry = join(cfg, 'uploads', entries[0]!);
    rmSync(entry);
    mkdirSync(entry);
    const count = async () => (await sb.req('GET', '/assets', { key: DEMO.full, query: { limit: 500 } })).body.data.length;
    const before = await count();
    const r = await runAdopsInProcess(['assets', 'upload', p], { env: env(cfg) });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`cannot read the upload journal ${entry} (EISDIR: a directory is where the file should be)`);
    expect(r.stderr).not.toMatch(/cannot read the file|bug in adops/);
    expect(await count()).toBe(before);
  });

  it('plans apply with a marker that is not a marker: taken over, the plan applied (exit 0; it only allowed deleting its own draft)', async () => {
    const cfg = tempConfigDir();
    const slug = 'h34-torn-marker';
    const marker = new PlanApplyMarkers(cfg, serviceScope(sb.url, DEMO.full)).pathOf(slug);
    mkdirSync(dirname(marker), { recursive: true });
    writeFileSync(marker, '{"v": 1, "pid": "not a pid"');
    const file = join(tempDir('adops-h34-marker-'), 'plan.json');
    writeFileSync(
      file,
      JSON.stringify({ slug, name: 'Torn', currency: 'USD', budget: 1000, startDate: '2026-10-01', endDate: '2026-10-31', lineItems: [SOCIAL_LINE_ITEM] }),
    );
    const r = await runAdopsInProcess(['plans', 'apply', file], { env: env(cfg) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/bug in adops/);
    expect((await sb.req('GET', `/context/campaign-plans/${slug}`, { key: DEMO.full })).status).toBe(200);
    expect(readdirSync(dirname(marker))).toEqual([]);
  });
});
