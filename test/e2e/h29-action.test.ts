// The GitHub Action (action.yml at the repository's root, issue #29): its entry
// script (action/entry.sh) run by a real bash as the composite step runs it,
// with the inputs in the environment and GITHUB_STEP_SUMMARY set: `assets sync`
// of a folder of creatives appends its table to the summary; the key reaches
// adops through the environment only (never argv: action.yml's step passes
// it as env); arguments are taken one per line, or exactly from a JSON array
// (args-json: an empty one, spaces kept), never re-split or expanded.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO, ensureBuilt, ROOT, tempConfigDir } from '../helpers/cli.js';
import { DEMO_WORLD, useTestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { gif, png } from '../unit/uploads/media-samples.js';

const sb = useTestSandbox({ world: DEMO_WORLD });
const dir = tempDir('adops-h29-action-');
const ENTRY = join(ROOT, 'action', 'entry.sh');

beforeAll(() => ensureBuilt(), 120_000);

/** The composite step: bash runs the entry with the action's env (PATH: this Node and the system's tools, no adops). */
function runEntry(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [ENTRY], {
      cwd: dir,
      env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: dir, ADOPS_CONFIG_DIR: tempConfigDir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += String(c)));
    child.stderr.on('data', (c: Buffer) => (stderr += String(c)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('action.yml', () => {
  it('passes the key from the inputs through the environment, never on the command line', () => {
    const yml = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    expect(yml).toMatch(/using: composite/);
    expect(yml).toMatch(/^\s+run: '"\$GITHUB_ACTION_PATH\/action\/entry\.sh"'$/m);
    expect(yml).toMatch(/^\s+ADOPS_API_KEY: \$\{\{ inputs\.api-key \}\}$/m);
    // No input is spliced into the script text (no template injection, no key in argv).
    expect(yml).not.toMatch(/run:.*\$\{\{/);
  });

  it('entry: assets sync of a folder appends the step summary naming both files and their Asset ids', async () => {
    const creatives = join(dir, 'creatives with space');
    mkdirSync(creatives);
    writeFileSync(join(creatives, 'hero.png'), png(40, 40));
    writeFileSync(join(creatives, 'strip.gif'), gif(20, 5));
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '# earlier step\n');
    const r = await runEntry({
      // As a YAML block leaves it: indented lines, a blank one; the folder's space stays in one argument.
      ADOPS_ACTION_ARGS: `  assets\n  sync\n\n  ${creatives}\n  --output\n  json\n`,
      ADOPS_API_KEY: DEMO.full,
      ADOPS_BASE_URL: sb.url,
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(r.code, r.stderr).toBe(0);
    const printed: Array<{ file: string; id: string; result: string }> = JSON.parse(r.stdout);
    expect(printed.map((p) => p.result)).toEqual(['uploaded', 'uploaded']);
    const md = readFileSync(summary, 'utf8');
    expect(md.startsWith('# earlier step\n### `adops assets sync ')).toBe(true);
    for (const p of printed) {
      expect(p.id).toMatch(/^ast_/);
      expect(md).toContain(`| uploaded | ${p.id} |`);
      expect(md).toContain(p.file.split('/').pop());
    }
    expect(r.stdout + r.stderr + md).not.toContain(DEMO.full);
  });

  it('entry: args-json passes an empty argument and one with spaces exactly; args keeps dropping empty lines', async () => {
    const slug = 'h34-action-brand';
    const made = await sb.req('POST', '/context/brands', { key: DEMO.full, body: { slug, name: 'Action', description: 'd0', voice: 'Loud' } });
    expect(made.status, made.text).toBe(201);
    const base = { ADOPS_API_KEY: DEMO.full, ADOPS_BASE_URL: sb.url };
    // An empty --voice clears it (docs/cli.md); a description keeps its spaces.
    const r = await runEntry({
      ...base,
      ADOPS_ACTION_ARGS_JSON: JSON.stringify(['brands', 'update', slug, '--voice', '', '--description', '  padded  ', '--json']),
    });
    expect(r.code, r.stderr).toBe(0);
    expect((await sb.req('GET', `/context/brands/${slug}`, { key: DEMO.full })).body).toMatchObject({ voice: null, description: '  padded  ' });
    // The same arguments one per line: the empty line is dropped as before (an empty line of a YAML block means
    // nothing), so --voice has no value: a usage error, nothing changed.
    const lines = await runEntry({ ...base, ADOPS_ACTION_ARGS: `brands\nupdate\n${slug}\n--voice\n\n--json\n` });
    expect(lines.code, lines.stderr).toBe(2);
    expect(lines.stderr).toMatch(/'--voice <voice>' argument missing/);
  });

  it('entry: args-json that is not an array of strings, or beside args, is a usage error (exit 2) saying why', async () => {
    const base = { ADOPS_API_KEY: DEMO.full, ADOPS_BASE_URL: sb.url };
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ ADOPS_ACTION_ARGS_JSON: 'assets list' }, /args-json input is not JSON/],
      [{ ADOPS_ACTION_ARGS_JSON: '["assets", 2]' }, /args-json input must be a JSON array of strings/],
      [{ ADOPS_ACTION_ARGS_JSON: '[]' }, /args-json input is an empty array/],
      [{ ADOPS_ACTION_ARGS_JSON: '["assets\\u0000", "list"]' }, /holds a NUL character/],
      [{ ADOPS_ACTION_ARGS_JSON: '["assets", "list"]', ADOPS_ACTION_ARGS: 'assets\nlist' }, /args or in args-json, not both/],
    ];
    for (const [env, said] of cases) {
      const r = await runEntry({ ...base, ...env });
      expect({ code: r.code, stdout: r.stdout }, r.stderr).toEqual({ code: 2, stdout: '' });
      expect(r.stderr).toMatch(said);
    }
  });

  it('entry: an empty key or no arguments is a usage error (exit 2) saying which input', async () => {
    const noKey = await runEntry({ ADOPS_ACTION_ARGS: 'assets\nlist', ADOPS_API_KEY: '', ADOPS_BASE_URL: sb.url });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/api-key input is empty/);
    const noArgs = await runEntry({ ADOPS_ACTION_ARGS: ' \n', ADOPS_API_KEY: DEMO.full, ADOPS_BASE_URL: sb.url });
    expect(noArgs.code).toBe(2);
    expect(noArgs.stderr).toMatch(/args input is empty/);
  });
});
