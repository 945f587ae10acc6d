// `assets sync` keeps every ready Asset it lists (sync's plan: a map by filename), so its listing does not hold
// V8's generations from the second page as a page-at-a-time walk does (src/client/paginate.ts keepsEveryRow,
// #37 session 6): a re-run whose listing spans two pages loads neither node:v8 nor node:perf_hooks (which the
// hold loads, with a GC observer), and still finds every file there. Which built-ins a run loaded: Node's own
// process.moduleLoadList, written out as the process exits by a file given to `node --import` (a require of
// `node:…` skips Module._resolveFilename, so test/helpers/load-hooks.ts does not see built-ins).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, DEMO, ROOT, useSandboxChild } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { png } from '../unit/uploads/media-samples.js';

const sandbox = useSandboxChild();
let dir: string;
let atExit: string;

beforeAll(() => {
  dir = tempDir('adops-sync-listing-');
  atExit = join(dir, 'module-load-list.mjs');
  writeFileSync(
    atExit,
    "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.ADOPS_TEST_LOADED, process.moduleLoadList.join('\\n')));\n",
  );
});

/** `adops assets sync` of `files` through bin/adops.js: its exit, rows, and the built-ins it required. */
function sync(files: string) {
  const log = join(dir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, '');
  const env = baseEnv({ ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: DEMO.full, ADOPS_CONFIG_DIR: join(dir, 'cfg'), ADOPS_TEST_LOADED: log });
  const r = spawnSync(process.execPath, ['--import', atExit, BIN, 'assets', 'sync', files, '--output', 'ndjson', '--concurrency', '8'], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  });
  const rows = r.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l): { result?: unknown } => JSON.parse(l));
  return { status: r.status, stderr: r.stderr, rows, builtins: readFileSync(log, 'utf8').split('\n') };
}

describe('assets sync listing of two pages', () => {
  it('finds every file there without holding the generations (no node:v8, no node:perf_hooks)', () => {
    const files = join(dir, 'creatives');
    mkdirSync(files);
    for (let i = 0; i < 101; i++) writeFileSync(join(files, `g${i}.png`), png(300 + i, 1));
    const first = sync(files);
    expect(first.status, first.stderr).toBe(0);
    expect(first.rows.filter((r) => r.result === 'uploaded')).toHaveLength(101);
    const again = sync(files); // 101 ready Assets: pages of 100, so two
    expect(again.status, again.stderr).toBe(0);
    expect(again.rows.filter((r) => r.result === 'already there')).toHaveLength(101);
    expect(again.builtins).toContain('NativeModule http'); // the list is the run's
    expect(again.builtins).not.toContain('NativeModule v8');
    expect(again.builtins).not.toContain('NativeModule perf_hooks');
  });
});
