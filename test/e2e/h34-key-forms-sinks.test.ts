// Issue #34 §3: "no escape sequence and no form of the key in any output, step
// summary, journal or cache". A hostile service in front of the in-process
// sandbox hands back the key it was sent in every form it could echo it in
// (as is, upper and lower case, URL and form encoded, JSON-escaped, base64 and
// base64url of the key and of `Bearer <key>`, padded or not), with terminal
// escape sequences (7-bit ESC and 8-bit C1), in answer fields, error messages,
// error codes and ids. Every sink is read back: stdout in each format, stderr
// (notes, error reports, --debug traces), the GitHub step summary, the
// `mutations apply` and upload journals, and the completion cache.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/http.js';
import { fetchEntries } from '../../src/cli/complete-sources.js';
import { CompletionCache } from '../../src/state/completion-cache.js';
import { DEMO, tempConfigDir, type RunResult } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { startHostileService, type HostileService } from '../helpers/hostile-service.js';
import { DEMO_WORLD, useTestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { workflowCommands } from '../helpers/workflow-commands.js';
import { png } from '../unit/uploads/media-samples.js';

const ACC = 'acc_acme_c_001';
/** The key the CLI holds: '/', '+' and '.' make its URL, form and JSON forms differ from it. The service forwards DEMO.full. */
const KEY = 'acr_h34/Echo+Key.0123456789_wxyz';
/** A key of the id alphabet, for completion: its upper case and base64url are ids a shell could take. */
const PLAIN_KEY = 'acr_h34_completion_key_0001';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');
/** Every form a service could echo a key in, each with its name. */
function formsOf(key: string): Array<[string, string]> {
  return [
    ['as is', key],
    ['upper case', key.toUpperCase()],
    ['lower case', key.toLowerCase()],
    ['encodeURIComponent', encodeURIComponent(key)],
    ['form-encoded', new URLSearchParams({ k: key }).toString().slice(2)],
    ['JSON-escaped', JSON.stringify(key).slice(1, -1).replace(/\//g, '\\/')],
    ['base64', b64(key)],
    ['base64 unpadded', b64(key).replace(/=+$/, '')],
    ['base64url', b64url(key)],
    ['base64 of Bearer', b64(`Bearer ${key}`)],
    ['base64url of Bearer, unpadded', b64url(`Bearer ${key}`).replace(/=+$/, '')],
  ];
}
/**
 * Terminal escape sequences: OSC (set the title), CSI 7-bit and 8-bit (clear the screen); and GitHub Actions'
 * workflow commands, which its runner reads from every line of a step's log.
 */
const ESCAPES = '\u001b]0;pwned\u0007\u001b[2J\u009b2J\n::error file=x::forged\n  ::stop-commands::tok ##[add-mask]secret ::warning::mid';
const echoOf = (key: string) =>
  `echo ${formsOf(key)
    .map(([, form]) => form)
    .join(' ')} ${ESCAPES}`;

/** Text that may show no form of `key` and no escape sequence. `what` names the sink. */
function expectClean(what: string, text: string, key = KEY): void {
  covered.push(what);
  for (const [name, form] of formsOf(key)) expect(text, `${what}: holds the key (${name}: ${form}):\n${text}`).not.toContain(form.slice(4, -4));
  expect(text.toLowerCase(), `${what}: holds the key in some case:\n${text}`).not.toContain(key.slice(4, -4).toLowerCase());
  expect(text, `${what}: an ESC`).not.toContain('\u001b');
  expect(text, `${what}: a C1 control`).not.toMatch(/[\u0080-\u009f]/);
  expect(workflowCommands(text), `${what}: a workflow command`).toEqual([]);
}
const covered: string[] = [];

const sb = useTestSandbox({ world: DEMO_WORLD });
let service: HostileService;
let url = '';
const cfg = tempConfigDir();
const work = tempDir('adops-h34-sinks-');

/** The key in every object of a JSON answer: a field of the object and of each row. */
function withEcho(body: unknown, key: string): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const o: Record<string, unknown> = { ...body, echo: echoOf(key) };
  if (Array.isArray(o.data)) o.data = o.data.map((r: unknown) => (r && typeof r === 'object' && !Array.isArray(r) ? { ...r, echo: echoOf(key) } : r));
  return o;
}

beforeAll(async () => {
  service = await startHostileService(sb, DEMO.full);
  service.rewrite = withEcho;
  url = service.url;
});
afterAll(async () => {
  await service?.close();
  console.log(`h34 key forms: ${covered.length} sinks read:\n  ${[...new Set(covered)].join('\n  ')}`);
});

const env = (over: Record<string, string> = {}) => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: url, ADOPS_API_KEY: KEY, ...over });
const adops = (args: string[], over: Record<string, string> = {}) => runAdopsInProcess(args, { env: env(over), timeoutMs: 60_000 });
const streams = (what: string, r: RunResult) => {
  expectClean(`${what}: stdout`, r.stdout);
  expectClean(`${what}: stderr`, r.stderr);
};

/** A campaign of ACC, read from the sandbox itself. */
async function firstCampaign(): Promise<string> {
  const campaigns: Array<{ id: string }> = (await sb.req('GET', '/observe/campaigns', { key: DEMO.full, query: { advertiserId: ACC, limit: 1 } })).body.data;
  return campaigns[0]!.id;
}

/** Every file under `dir`, with its text. */
function filesUnder(dir: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push([p, readFileSync(p, 'utf8')]);
  }
  return out;
}

describe('a service that echoes the key in every form, with escape sequences', () => {
  beforeEach(() => {
    service.faults = [];
  });

  it('stdout in every format (table, json, ndjson, csv, markdown) and adops api', async () => {
    for (const o of ['table', 'json', 'ndjson', 'csv', 'markdown']) {
      const r = await adops(['observe', 'campaigns', 'list', '--advertiser', ACC, '--limit', '2', '-o', o, '--query', '[].{id: id, echo: echo}']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/echo|acr_…wxyz/);
      streams(`observe campaigns list -o ${o}`, r);
    }
    const api = await adops(['api', 'GET', `/observe/campaigns?advertiserId=${ACC}&limit=1`]);
    expect(api.code, api.stderr).toBe(0);
    streams('api GET', api);
  });

  it('stderr: an error report (text, json) and --debug traces of a 500 whose code, message and issues hold the key', async () => {
    service.faults = [
      {
        method: 'GET',
        path: /^\/observe\/campaigns$/,
        status: 500,
        body: (key) => ({ error: `internal_${key.toUpperCase()}`, message: echoOf(key), issues: [{ in: 'query', path: b64(key), message: echoOf(key) }] }),
      },
    ];
    for (const extra of [[], ['-o', 'json'], ['--debug'], ['--debug', '--retries', '1']]) {
      const r = await adops(['observe', 'campaigns', 'list', '--advertiser', ACC, '--retries', '0', ...extra]);
      expect(r.code, r.stderr).toBe(1);
      streams(`observe campaigns list (500) ${extra.join(' ')}`, r);
    }
  });

  it('mutations apply: stdout, the step summary and the journal, a refusal whose code and message hold the key', async () => {
    const id = await firstCampaign();
    const file = join(work, 'changes.csv');
    writeFileSync(file, `advertiserId,action,targetType,targetId\n${ACC},pause,campaign,${id}\n`);
    service.faults = [
      { method: 'POST', path: /^\/mutations$/, status: 422, body: (key) => ({ error: `invalid\u009b2J_${key.toUpperCase()}`, message: echoOf(key) }) },
    ];
    const summary = join(work, 'summary-apply.md');
    writeFileSync(summary, '');
    const journal = join(work, 'journal.ndjson');
    const r = await adops(['mutations', 'apply', file, '-o', 'json', '--journal', journal], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
    expect(r.code, r.stderr).toBe(7);
    streams('mutations apply (422)', r);
    expect(readFileSync(summary, 'utf8')).toContain('| row | action |');
    expectClean('the step summary of mutations apply', readFileSync(summary, 'utf8'));
    expect(readFileSync(journal, 'utf8')).toContain('refused');
    expectClean('the journal of mutations apply (a refused row)', readFileSync(journal, 'utf8'));
  });

  it('mutations apply: an id that holds the key is not recorded, nor shown', async () => {
    const id = await firstCampaign();
    const file = join(work, 'changes-id.csv');
    writeFileSync(file, `advertiserId,action,targetType,targetId\n${ACC},activate,campaign,${id}\n`);
    service.faults = [
      {
        method: 'POST',
        path: /^\/mutations$/,
        status: 201,
        body: (key) => ({ id: `mut_${b64url(key)}`, state: 'pending', advertiserId: ACC, action: 'activate', target: { type: 'campaign', id } }),
      },
    ];
    const summary = join(work, 'summary-id.md');
    writeFileSync(summary, '');
    const journal = join(work, 'journal-id.ndjson');
    const r = await adops(['mutations', 'apply', file, '-o', 'json', '--journal', journal, '--retries', '0'], {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summary,
    });
    // Not acted on: the row is in doubt with its Idempotency-Key (exit 10), the id never kept nor shown.
    expect(r.code, r.stderr).toBe(10);
    expect(r.stdout).toContain('id: holds an API key');
    streams('mutations apply (an id holding the key)', r);
    expectClean('the step summary of mutations apply (an id holding the key)', readFileSync(summary, 'utf8'));
    expectClean('the journal of mutations apply (an id holding the key)', readFileSync(journal, 'utf8'));
  });

  it('assets upload: a reservation whose id holds the key, a finalize refused with the key; summary and upload journal', async () => {
    writeFileSync(join(work, 'echo.png'), png(12, 12));
    service.faults = [
      {
        method: 'POST',
        path: /^\/assets\/[^/]+\/finalize$/,
        status: 502,
        body: (key) => ({ error: 'provider_error', message: echoOf(key), provider: 'provider_a', retryable: false }),
      },
    ];
    const summary = join(work, 'summary-upload.md');
    writeFileSync(summary, '');
    const r = await adops(['assets', 'upload', join(work, 'echo.png'), '--retries', '0'], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
    expect(r.code, r.stderr).not.toBe(0);
    streams('assets upload (finalize 502)', r);
    expectClean('the step summary of assets upload', readFileSync(summary, 'utf8'));

    writeFileSync(join(work, 'echo2.png'), png(14, 14));
    service.faults = [
      {
        method: 'POST',
        path: /^\/assets\/uploads$/,
        status: 201,
        body: (key) => ({ id: `ast_${b64url(key)}`, uploadUrl: `${url}/_storage/uploads/tok?k=${encodeURIComponent(key)}`, expiresAt: '2099-01-01T00:00:00Z' }),
      },
    ];
    const reserved = await adops(['assets', 'upload', join(work, 'echo2.png'), '--retries', '0'], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
    expect(reserved.code, reserved.stderr).toBe(1);
    expect(reserved.stderr).toContain('id: holds an API key; uploadUrl: holds an API key');
    streams('assets upload (a reservation holding the key)', reserved);
    expectClean('the step summary of assets upload (a reservation holding the key)', readFileSync(summary, 'utf8'));
    for (const [path, text] of filesUnder(cfg)) expectClean(`${path.slice(cfg.length)} (config dir: upload journal)`, text);
  });

  it('the completion cache: ids that are the key in upper case or base64url are never kept; descriptions are masked', async () => {
    service.faults = [
      {
        method: 'GET',
        path: /^\/assets$/,
        status: 200,
        body: () => ({
          data: [PLAIN_KEY.toUpperCase(), b64url(PLAIN_KEY), b64url(`Bearer ${PLAIN_KEY}`), 'ast_h34_plain'].map((id) => ({
            id,
            filefilename: echoOf(PLAIN_KEY),
          })),
          nextCursor: null,
        }),
      },
    ];
    const client = new ApiClient({ baseUrl: url, apiKey: PLAIN_KEY, userAgent: 'adops/test' });
    const entries = await fetchEntries('asset', client, new AbortController().signal);
    const cache = new CompletionCache(join(cfg, 'completion-cache', 'h34'));
    cache.write('asset', entries);
    expect(entries.map((e) => e.id)).toEqual(['ast_h34_plain']);
    expectClean('the completion cache', readFileSync(join(cfg, 'completion-cache', 'h34', 'asset.json'), 'utf8'), PLAIN_KEY);
  });
});
