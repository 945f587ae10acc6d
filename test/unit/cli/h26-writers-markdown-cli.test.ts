// `--output markdown` through the whole CLI, in process (runCli with the
// command registry), against a real sandbox on loopback: a list, --all over
// several pages, a get, --fields, and a Brand whose name and description carry
// a pipe, line breaks, an escape sequence, markup and a key.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAllPools } from '../../../src/client/http.js';
import { runCli } from '../../../src/cli/run.js';
import { getRegistry } from '../../../src/commands/index.js';
import { minimalWorld, startTestSandbox, TEST_FULL_KEY, type TestSandbox } from '../../helpers/sandbox.js';
import { sink } from './output/helpers.js';
import { tempDir } from '../../helpers/temp.js';

const SECRET = 'acr_live_8f3a9c1d2e4b5a6f7081';
const HOSTILE = `Acme | Co\r\nline two\u001b[2J\u001b]0;owned\u0007 <b>bold</b> ${SECRET}`;
let sb: TestSandbox;
let dir: string;

/** One run of the whole CLI in this process, stdout and stderr kept. */
async function adops(argv: string[]) {
  const [stdout, stderr] = [sink(), sink()];
  const code = await runCli(argv, {
    stdin: sink().out,
    stdout: stdout.out,
    stderr: stderr.out,
    signal: new AbortController().signal,
    registry: getRegistry(),
    env: { ADOPS_CONFIG_DIR: join(dir, 'cfg'), ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: TEST_FULL_KEY },
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** A markdown table's lines, each split into its cells on the unescaped pipes (as GFM splits them). */
const table = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => {
      expect(l).toMatch(/^\| .* \|$/);
      return l
        .slice(2, -2)
        .split(/(?<!\\) \| /)
        .map((c) => c.trim());
    });

beforeAll(async () => {
  dir = tempDir('adops-h26-md-');
  sb = await startTestSandbox({ world: minimalWorld() });
  for (const [slug, name, description] of [
    ['acme', 'Acme', 'plain'],
    ['bolt', 'Bolt', 'x'],
    ['evil', HOSTILE, `two\nlines | ${SECRET}`],
  ]) {
    const res = await sb.req('POST', '/context/brands', { key: TEST_FULL_KEY, body: { slug, name, description } });
    expect(res.status, res.text).toBe(201);
  }
}, 30_000);

afterAll(async () => {
  await closeAllPools();
  await sb?.close();
});

describe('adops … --output markdown', () => {
  it('a list: one GitHub table with the columns a table shows, a hostile name kept in its one cell', async () => {
    const r = await adops(['brands', 'list', '-o', 'markdown']);
    expect(r.code, r.stderr).toBe(0);
    const lines = table(r.stdout);
    const header = lines[0]!;
    expect(header.slice(0, 2)).toEqual(['slug', 'name']);
    expect(lines[1]!.every((c) => /^---:?$/.test(c))).toBe(true);
    expect(lines).toHaveLength(2 + 3);
    for (const l of lines) expect(l).toHaveLength(header.length);
    const evil = lines.find((l) => l[0] === 'evil')!;
    expect(evil[1]).toBe('`Acme `\\|` Co`<br>`line two <b>bold</b> acr_…7081`');
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(r.stdout).not.toContain('8f3a9c1d2e4b5a6f');
  });

  it('--all: the header once, the rows of every page', async () => {
    const r = await adops(['brands', 'list', '--all', '--limit', '1', '-o', 'markdown', '--fields', 'slug']);
    expect(r.code, r.stderr).toBe(0);
    // Newest first, as the service lists them.
    expect(r.stdout).toBe('| slug |\n| --- |\n| evil |\n| bolt |\n| acme |\n');
  });

  it('--fields picks and orders the columns', async () => {
    const r = await adops(['brands', 'list', '-o', 'markdown', '--fields', 'name,slug']);
    expect(r.code, r.stderr).toBe(0);
    expect(table(r.stdout).slice(0, 2)).toEqual([
      ['name', 'slug'],
      ['---', '---'],
    ]);
    expect(
      table(r.stdout)
        .slice(2)
        .find((l) => l[1] === 'acme'),
    ).toEqual(['Acme', 'acme']);
  });

  it('a get: a field/value table, every value through the text boundary', async () => {
    const r = await adops(['brands', 'get', 'evil', '-o', 'markdown']);
    expect(r.code, r.stderr).toBe(0);
    const lines = table(r.stdout);
    expect(lines.slice(0, 2)).toEqual([
      ['field', 'value'],
      ['---', '---'],
    ]);
    const value = Object.fromEntries(lines.slice(2).map(([k, v]) => [k, v]));
    expect(value.slug).toBe('evil');
    expect(value.description).toBe('two<br>`lines `\\|` acr_…7081`');
    for (const l of lines) expect(l).toHaveLength(2);
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(r.stdout).not.toContain('8f3a9c1d2e4b5a6f');
  });

  it('a get with --fields: those fields only', async () => {
    const r = await adops(['brands', 'get', 'acme', '-o', 'markdown', '--fields', 'name,description']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('| field | value |\n| --- | --- |\n| name | Acme |\n| description | plain |\n');
  });

  it('auth status: a field/value table, the key masked; under csv a header and one row (it wrote a JSON line)', async () => {
    const md = await adops(['auth', 'status', '-o', 'markdown']);
    expect(md.code, md.stderr).toBe(0);
    const lines = table(md.stdout);
    expect(lines[0]).toEqual(['field', 'value']);
    expect(Object.fromEntries(lines.slice(2))).toMatchObject({ loggedIn: 'true', key: '`acr_…0001`', keySource: 'env' });
    expect(md.stdout).not.toContain(TEST_FULL_KEY);
    const csv = await adops(['auth', 'status', '-o', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.split('\n')[0]).toBe('profile,profileSource,baseUrl,baseUrlSource,organization,loggedIn,key,keySource,keyStoredIn,envOverrides');
    expect(csv.stdout.trimEnd().split('\n')).toHaveLength(2);
  });

  it('an unknown format is still a usage error naming the choices, markdown among them', async () => {
    const r = await adops(['brands', 'list', '-o', 'xml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/table, json, ndjson, csv, markdown/);
  });
});
