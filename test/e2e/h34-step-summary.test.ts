// Issue #34 §3, the GitHub step summary against a hostile service, through the
// whole CLI in process:
// - no size bound: 20 rows with a 200 KB service error wrote 4 MB, and GitHub
//   shows nothing of a step summary over 1 MiB. Now each cell is cut (saying
//   so), one summary is bounded, and the file (which other commands of the
//   step may have filled) is never brought past the limit;
// - bare URLs (autolinked), `$$…$$` and `$…$` (math) and @mentions, from file
//   names and service text, were left as they came: every plain part of the
//   summary is now a word, the rest code spans (helpers/markdown-cells.ts reads
//   it back as GitHub's parser would); --output markdown on stdout the same.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO, tempConfigDir } from '../helpers/cli.js';
import { startHostileService, type HostileService } from '../helpers/hostile-service.js';
import { plainIsInert, spans, tableCells, tableRows } from '../helpers/markdown-cells.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { DEMO_WORLD, useTestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { png } from '../unit/uploads/media-samples.js';

const ACC = 'acc_acme_c_001';
/** Service text GitHub would act on if left plain: a link, math twice, mentions. */
const RENDERED = 'see https://evil.example/fix and www.evil.example, $$x^2$$ costs $5$, cc @octocat @acme/admins';

const sb = useTestSandbox({ world: DEMO_WORLD });
let service: HostileService;
const cfg = tempConfigDir();
const dir = tempDir('adops-h34-summary-');
beforeAll(async () => {
  service = await startHostileService(sb, DEMO.full);
});
afterAll(async () => {
  await service?.close();
});
beforeEach(() => {
  service.faults = [];
});

let n = 0;
/** A summary file holding `before` bytes already (earlier commands of the step), and the run's env. */
function summary(before = '') {
  const file = join(dir, `summary-${++n}.md`);
  writeFileSync(file, before);
  return { file, env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: service.url, ADOPS_API_KEY: DEMO.full, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: file } };
}

/** Twenty rows of changes, each refused with a 200 KB message. */
async function twentyRefusals(): Promise<string> {
  const campaigns: Array<{ id: string }> = (await sb.req('GET', '/observe/campaigns', { key: DEMO.full, query: { advertiserId: ACC, limit: 1 } })).body.data;
  const file = join(dir, `changes-${++n}.csv`);
  writeFileSync(
    file,
    ['advertiserId,action,targetType,targetId', ...Array.from({ length: 20 }, () => `${ACC},pause,campaign,${campaigns[0]!.id}`)].join('\n') + '\n',
  );
  service.faults = [
    { method: 'POST', path: /^\/mutations$/, status: 422, body: () => ({ error: 'invalid_change', message: `${RENDERED} ${'x'.repeat(200_000)}` }) },
  ];
  return file;
}

/** Every table line splits into `columns` cells and all of the text is inert. */
function expectInert(md: string, columns: number): void {
  // Table lines, the separator (| --- | ---: |) left out.
  for (const line of md.split('\n').filter((l) => l.startsWith('|') && !/^\|( ---:? \|)+$/.test(l))) {
    expect(tableCells(line), line.slice(0, 300)).toHaveLength(columns);
    for (const cell of tableCells(line)) expect(plainIsInert(cell), `a cell GitHub would render: ${cell.slice(0, 300)}`).toBe(true);
  }
  // The heading, the counts and the rows left out: adops' words, and outside text only in code spans.
  for (const line of md.split('\n').filter((l) => l && !l.startsWith('|'))) {
    const plain = spans(line.replace(/^### /, ''))
      .filter((s) => !s.code)
      .map((s) => s.text)
      .join(' ');
    expect(plain, `a line GitHub would render: ${line.slice(0, 300)}`).toMatch(/^[A-Za-z0-9 ,.:;()'-]*$/);
    expect(plain).not.toMatch(/www\.|:\/\//i);
  }
}

describe('the step summary against a hostile service', () => {
  it('20 rows refused with a 200 KB message: every row, each message cut, the whole well under 1 MiB', async () => {
    const file = await twentyRefusals();
    const { file: md, env } = summary();
    const r = await runAdopsInProcess(['mutations', 'apply', file, '-o', 'json', '--journal', join(dir, `j-${n}.ndjson`)], { env, timeoutMs: 60_000 });
    expect(r.code, r.stderr.slice(0, 500)).toBe(7);
    const text = readFileSync(md, 'utf8');
    expect(statSync(md).size).toBeLessThan(40 * 1024);
    const rows = tableRows(text);
    expect(rows).toHaveLength(20);
    for (const row of rows) expect(row[5]).toMatch(/^invalid_change: see https:\/\/evil\.example\/fix .*x… \(cut: \d+ more characters\)$/);
    expectInert(text, 6);
  });

  it('a step whose summary is nearly full: appended only within what is left, or not at all with a warning', async () => {
    const file = await twentyRefusals();
    // 884 KiB written by earlier commands of the step: 12 KiB left under the 896 KiB a summary may bring the file to.
    const nearly = summary('x'.repeat(884 * 1024));
    const r = await runAdopsInProcess(['mutations', 'apply', file, '-o', 'json', '--journal', join(dir, `j-${n}.ndjson`)], {
      env: nearly.env,
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(7);
    expect(statSync(nearly.file).size).toBeLessThanOrEqual(896 * 1024);
    expect(readFileSync(nearly.file, 'utf8')).toMatch(/more rows left out/);

    const full = summary('x'.repeat(1024 * 1024));
    const again = await runAdopsInProcess(['mutations', 'apply', file, '-o', 'json', '--journal', join(dir, `j-${n}.ndjson`)], {
      env: full.env,
      timeoutMs: 60_000,
    });
    expect(again.code).toBe(7);
    expect(statSync(full.file).size).toBe(1024 * 1024);
    expect(again.stderr).toMatch(/not appended to GITHUB_STEP_SUMMARY .* near GitHub's 1 MiB a step/);
  });

  it('file names and a service error with URLs, math and @mentions: inert in the summary and in --output markdown', async () => {
    const names = ['@octocat.png', '$$x$$.png', '$y$ costs $5.png', 'www.evil.example.png', 'a|b `c`.png'];
    const files = names.map((name, i) => {
      const path = join(dir, name);
      writeFileSync(path, png(10 + i, 10));
      return path;
    });
    // Uploaded: the file names in stdout's table and in the summary.
    const ok = summary();
    const uploaded = await runAdopsInProcess(['assets', 'upload', ...files, '-o', 'markdown'], { env: ok.env, timeoutMs: 60_000 });
    expect(uploaded.code, uploaded.stderr.slice(0, 500)).toBe(0);
    expectInert(uploaded.stdout, tableCells(uploaded.stdout.split('\n')[0]!).length);
    expectInert(readFileSync(ok.file, 'utf8'), 5);
    // Shown exactly: what a reader copies is the name.
    expect(tableRows(uploaded.stdout).flat()).toEqual(expect.arrayContaining(names));
    expect(tableRows(readFileSync(ok.file, 'utf8')).map((r) => r[3])).toEqual(expect.arrayContaining(names));

    // Refused by the service with text GitHub would render.
    const again = files.map((f, i) => {
      writeFileSync(`${f}.png`, png(30 + i, 10));
      return `${f}.png`;
    });
    service.faults = [
      {
        method: 'POST',
        path: /^\/assets\/[^/]+\/finalize$/,
        status: 502,
        body: () => ({ error: 'provider_error', message: RENDERED, provider: 'provider_a', retryable: false }),
      },
    ];
    const refused = summary();
    const r = await runAdopsInProcess(['assets', 'upload', ...again, '--retries', '0', '-o', 'markdown'], { env: refused.env, timeoutMs: 60_000 });
    expect(r.code, r.stderr.slice(0, 500)).not.toBe(0);
    const text = readFileSync(refused.file, 'utf8');
    expect(tableRows(text).map((row) => row[4])).toEqual(names.map(() => `provider_error (502): ${RENDERED}`));
    expectInert(text, 5);
  });
});
