// Issue 25 §3 and the README's promise "The key never appears in argv,
// output, logs or traces": a hostile service in front of the sandbox echoes
// the key it is sent (from the Authorization header) into every JSON answer
// (a field of the object and of every row), into a header, and into error
// answers on demand (a 500, a 502 provider_error with a platformError), each
// message also holding "\r\nInjected-Line" (a forged line of adops' own).
// A representative command of each group runs through it; the key must not be
// on stdout, stderr, or in any file adops wrote (config dir, journals), and no
// line may start with the forged text.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../unit/uploads/media-samples.js';
import { DEMO, ensureBuilt, tempConfigDir, type RunResult } from '../helpers/cli.js';
import { startDemoSandbox, type DemoSandbox } from '../helpers/demo-sandbox.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { tempDir } from '../helpers/temp.js';
import { virtualClock } from '../helpers/virtual-clock.js';

const KEY = DEMO.full;
/** The key without its last four characters: all a masked key may show is `acr_…` and those four. */
const KEY_BODY = KEY.slice(0, -4);
const FORGED = '\r\nInjected-Line';

type Fault = '500' | 'provider' | '401' | '422';
/** Which requests get an error answer instead of the sandbox's (method and a path pattern). */
let faults: Array<{ method: string; path: RegExp; fault: Fault }> = [];
const seen: string[] = [];

let sandbox: DemoSandbox;
let echo: Server;
let url = '';
const cfg = tempConfigDir();
const work = tempDir('adops-h25-echo-');

function faultBody(fault: Fault, key: string): { status: number; body: unknown } {
  // A refusal whose very code holds the key: the code is what a journal records of a refused row.
  if (fault === '422') return { status: 422, body: { error: `invalid_${key}`, message: `refused ${key}${FORGED}` } };
  if (fault === '401') return { status: 401, body: { error: 'unauthorized', message: `the key ${key} is not valid${FORGED}` } };
  if (fault === '500')
    return {
      status: 500,
      body: { error: 'internal', message: `boom with ${key}${FORGED}`, issues: [{ in: 'header', path: 'authorization', message: `Bearer ${key}${FORGED}` }] },
    };
  return {
    status: 502,
    body: {
      error: 'provider_error',
      message: `the provider refused ${key}${FORGED}`,
      provider: 'provider_a',
      platformError: { code: 190, type: 'OAuthException', message: `Invalid token ${key}${FORGED}`, error_user_msg: `${key}\nInjected-Line` },
      retryable: false,
    },
  };
}

/** The key in every object of a JSON answer: a top-level field and a field of each row. */
function withKey(body: unknown, key: string): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const o: Record<string, unknown> = { ...body, echo: `you sent ${key}` };
  if (Array.isArray(o.data))
    o.data = o.data.map((r: unknown) => (r && typeof r === 'object' && !Array.isArray(r) ? { ...r, echo: `row of ${key}${FORGED}` } : r));
  return o;
}

function forward(req: IncomingMessage, body: Buffer, res: import('node:http').ServerResponse, key: string): void {
  const target = new URL(sandbox.url);
  const up = request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
    (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        let out = Buffer.concat(chunks);
        const headers: Record<string, string | string[] | undefined> = { ...answer.headers, 'x-echo-key': key };
        if (String(answer.headers['content-type'] ?? '').includes('json') && out.length) {
          try {
            out = Buffer.from(JSON.stringify(withKey(JSON.parse(out.toString('utf8')), key)));
          } catch {
            // not JSON after all: as it came
          }
        }
        delete headers['content-length'];
        delete headers['transfer-encoding'];
        res.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': String(out.length) });
        res.end(out);
      });
    },
  );
  up.on('error', () => res.destroy());
  up.end(body);
}

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startDemoSandbox();
  echo = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const key = String(req.headers.authorization ?? '').replace(/^Bearer\s+/i, '') || KEY;
      seen.push(`${req.method} ${req.url}`);
      const path = (req.url ?? '').split('?')[0]!;
      const f = faults.find((x) => x.method === req.method && x.path.test(path));
      if (f) {
        const { status, body } = faultBody(f.fault, key);
        res.writeHead(status, { 'content-type': 'application/json', 'x-echo-key': key });
        return res.end(JSON.stringify(body));
      }
      forward(req, Buffer.concat(chunks), res, key);
    });
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  writeFileSync(join(work, 'echo.png'), png());
}, 90_000);
afterAll(async () => {
  echo?.closeAllConnections();
  await new Promise<void>((r) => (echo ? echo.close(() => r()) : r()));
  await sandbox?.stop();
});

const env = (over: Record<string, string> = {}) => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: url, ADOPS_API_KEY: KEY, ...over });
// A run that retries and does not wait on the sandbox sleeps on a virtual clock: its back-off waits (what the
// key must survive is the answers and the retry notes, not the time between) cost nothing. A --wait polls the
// sandbox, which moves on the real clock, so it keeps the real one.
const adops = (args: string[], over: Record<string, string> = {}) =>
  runAdopsInProcess(args, {
    env: env(over),
    timeoutMs: 60_000,
    ...(args.includes('--retries') && !args.includes('--wait') ? { clock: virtualClock(Date.now()) } : {}),
  });

/** Every file under `dir` (config, caches, journals), with its text. */
function filesUnder(dir: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const n of names) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push([p, readFileSync(p, 'latin1')]);
  }
  return out;
}

const covered: string[] = [];
function expectNoKey(what: string, r: RunResult): void {
  covered.push(what);
  for (const [stream, text] of [
    ['stdout', r.stdout],
    ['stderr', r.stderr],
  ] as const) {
    expect(text, `${what}: the key on ${stream}`).not.toContain(KEY_BODY);
    // No line of the service's starts a line of adops' own (a quoted CSV cell keeps its line breaks: they are data).
    if (!(stream === 'stdout' && what.includes('csv'))) expect(text, `${what}: a forged line on ${stream}:\n${text}`).not.toMatch(/^Injected-Line/m);
  }
  for (const [file, text] of [...filesUnder(cfg), ...filesUnder(work)]) expect(text, `${what}: the key in ${file}`).not.toContain(KEY_BODY);
}

describe('a service that echoes the key', () => {
  it('a line break in a service message forges no line: a read, a mutation start, an upload finalize', async () => {
    const list = await adops(['observe', 'campaigns', 'list', '--advertiser', 'acc_acme_c_001', '--limit', '1', '-o', 'json']);
    const id = (JSON.parse(list.stdout) as Array<{ id: string }>)[0]!.id;
    faults = [
      { method: 'GET', path: /^\/observe\/campaigns$/, fault: '500' },
      { method: 'POST', path: /^\/mutations$/, fault: '500' },
      { method: 'POST', path: /^\/assets\/[^/]+\/finalize$/, fault: 'provider' },
    ];
    const runs: Array<[string, string[]]> = [
      ['observe campaigns list (500)', ['observe', 'campaigns', 'list', '--advertiser', 'acc_acme_c_001', '--retries', '0']],
      ['mutations pause (500)', ['mutations', 'pause', 'acc_acme_c_001', '--campaign', id, '--retries', '0']],
      ['assets upload (finalize 502)', ['assets', 'upload', join(work, 'echo.png'), '--retries', '0']],
    ];
    for (const [what, args] of runs) {
      const r = await adops(args);
      expect(r.code, what).not.toBe(0);
      expect(r.stderr, `${what}:\n${r.stderr}`).toContain('Injected-Line');
      // Every line at column 0 is one of adops' own kinds; the service's text is joined or indented.
      for (const line of r.stderr.split('\n').filter(Boolean)) expect.soft(line, `${what}:\n${r.stderr}`).not.toMatch(/^Injected-Line/);
    }
    faults = [];
  }, 60_000);

  it('observe: stored list (json, csv, ndjson, table with the echoed field), live get with a provider_error, a 500', async () => {
    for (const o of ['json', 'csv', 'ndjson']) {
      const r = await adops(['observe', 'campaigns', 'list', '--advertiser', 'acc_acme_c_001', '--limit', '2', '-o', o]);
      expect(r.code, r.stderr).toBe(0);
      expectNoKey(`observe campaigns list -o ${o}`, r);
    }
    const json = await adops(['observe', 'campaigns', 'list', '--advertiser', 'acc_acme_c_001', '--limit', '2', '-o', 'json']);
    const rows = JSON.parse(json.stdout) as Array<{ id: string; echo: string }>;
    // The field arrived, masked: the service's text is kept, the key is not.
    expect(rows[0]!.echo).toMatch(/^row of acr_…\w{4}\r\nInjected-Line$/);
    const table = await adops([
      'observe',
      'campaigns',
      'list',
      '--advertiser',
      'acc_acme_c_001',
      '--limit',
      '2',
      '-o',
      'table',
      '--query',
      '[].{id: id, echo: echo}',
    ]);
    expect(table.code, table.stderr).toBe(0);
    expectNoKey('observe campaigns list -o table --query (echo column)', table);

    faults = [{ method: 'GET', path: /^\/observe\/acc_acme_c_001\/campaigns\//, fault: 'provider' }];
    const live = await adops(['observe', 'campaigns', 'get', 'acc_acme_c_001', rows[0]!.id, '--retries', '0']);
    expect(live.code).toBe(6);
    expect(live.stderr).toMatch(/^error: provider_error \(502\): the provider refused acr_…\w{4} Injected-Line$/m);
    expectNoKey('observe campaigns get (502 provider_error, platformError)', live);
    const liveJson = await adops(['observe', 'campaigns', 'get', 'acc_acme_c_001', rows[0]!.id, '--retries', '0', '-o', 'json']);
    expectNoKey('observe campaigns get -o json (502 provider_error)', liveJson);

    faults = [{ method: 'GET', path: /^\/observe\/campaigns$/, fault: '500' }];
    const boom = await adops(['observe', 'campaigns', 'list', '--advertiser', 'acc_acme_c_001', '--retries', '1', '--debug']);
    expect(boom.code).toBe(1);
    expect(boom.stderr).toMatch(/^error: internal \(500\): boom with acr_…\w{4} Injected-Line$/m);
    expectNoKey('observe campaigns list --debug (500)', boom);
    faults = [];
  }, 120_000);

  it('mutations: start, rename and apply (json and csv summaries, retry notes, journal) answered by a 500 echoing the key', async () => {
    const list = await adops(['observe', 'campaigns', 'list', '--advertiser', 'acc_acme_c_001', '--limit', '1', '-o', 'json']);
    const id = (JSON.parse(list.stdout) as Array<{ id: string }>)[0]!.id;
    const ok = await adops(['mutations', 'pause', 'acc_acme_c_001', '--campaign', id, '-o', 'json']);
    expect(ok.code, ok.stderr).toBe(0);
    expectNoKey('mutations pause (echoed fields)', ok);
    const got = await adops(['mutations', 'get', (JSON.parse(ok.stdout) as { id: string }).id, '--wait', '--timeout', '20', '--interval', '0.1']);
    expectNoKey('mutations get --wait', got);

    faults = [{ method: 'POST', path: /^\/mutations$/, fault: '500' }];
    const start = await adops([
      'mutations',
      'start',
      '-F',
      'advertiserId=acc_acme_c_001',
      '-F',
      'action=pause',
      '-F',
      `target={"type":"campaign","id":"${id}"}`,
      '--retries',
      '1',
    ]);
    expect(start.code).not.toBe(0);
    expectNoKey('mutations start (500)', start);
    const rename = await adops(['mutations', 'rename', 'acc_acme_c_001', '--campaign', id, '--name', 'Echo', '--retries', '1']);
    expect(rename.code).not.toBe(0);
    // The service's line break inside adops' own message: the rest of it indented, never a line of its own.
    expect(rename.stderr).toMatch(/^ {2}Injected-Line/m);
    expectNoKey('mutations rename (500)', rename);
    const renameJson = await adops(['mutations', 'rename', 'acc_acme_c_001', '--campaign', id, '--name', 'Echo', '--retries', '1', '-o', 'json']);
    expectNoKey('mutations rename -o json (500)', renameJson);

    const file = join(work, 'changes.csv');
    writeFileSync(file, `advertiserId,action,targetType,targetId\nacc_acme_c_001,pause,campaign,${id}\nacc_acme_c_001,activate,campaign,${id}\n`);
    for (const o of ['json', 'csv', 'table']) {
      const apply = await adops(['mutations', 'apply', file, '--retries', '2', '-o', o, '--journal', join(work, `journal-${o}.ndjson`)]);
      expect(apply.code, apply.stderr).not.toBe(0);
      expect(apply.stdout.length).toBeGreaterThan(0);
      expectNoKey(`mutations apply -o ${o} (500: summary rows, notes, journal)`, apply);
    }
    faults = [{ method: 'POST', path: /^\/mutations$/, fault: '422' }];
    const refused = await adops(['mutations', 'apply', file, '-o', 'json', '--journal', join(work, 'journal-refused.ndjson')]);
    expect(refused.code).toBe(7);
    expectNoKey('mutations apply (422 whose code holds the key: summary rows, journal)', refused);
    faults = [];
  }, 180_000);

  it('assets upload (finalize answered by a provider_error, then a 500), assets list; brands create/get/list; api', async () => {
    faults = [{ method: 'POST', path: /^\/assets\/[^/]+\/finalize$/, fault: 'provider' }];
    const up = await adops(['assets', 'upload', join(work, 'echo.png'), '--retries', '0']);
    expect(up.code, up.stderr).not.toBe(0);
    expect(
      seen.some((s) => /POST \/assets\/[^/]+\/finalize/.test(s)),
      `${seen.join('\n')}\n${up.stderr}`,
    ).toBe(true);
    expectNoKey('assets upload (finalize 502 provider_error)', up);
    faults = [{ method: 'POST', path: /^\/assets\/[^/]+\/finalize$/, fault: '500' }];
    const upJson = await adops(['assets', 'upload', join(work, 'echo.png'), '--retries', '0', '-o', 'json']);
    expect(upJson.code).not.toBe(0);
    expectNoKey('assets upload -o json (finalize 500)', upJson);
    faults = [];
    const done = await adops(['assets', 'upload', join(work, 'echo.png'), '-o', 'json']);
    expect(done.code, done.stderr).toBe(0);
    expectNoKey('assets upload (echoed fields)', done);
    expectNoKey('assets list', await adops(['assets', 'list', '-o', 'json']));

    const created = await adops(['brands', 'create', '--slug', 'echo-brand', '--name', 'Echo', '-o', 'json']);
    expect(created.code, created.stderr).toBe(0);
    expectNoKey('brands create', created);
    expectNoKey('brands get (json)', await adops(['brands', 'get', 'echo-brand', '-o', 'json']));
    expectNoKey('brands get (key/value view)', await adops(['brands', 'get', 'echo-brand', '-o', 'table']));
    expectNoKey('brands list --fields slug,echo (table)', await adops(['brands', 'list', '--fields', 'slug,echo', '-o', 'table']));
    expectNoKey('brands list (csv)', await adops(['brands', 'list', '--fields', 'slug,echo', '-o', 'csv']));
    expectNoKey('api GET /context/brands', await adops(['api', 'GET', '/context/brands']));
    faults = [{ method: 'GET', path: /^\/context\/brands$/, fault: '500' }];
    expectNoKey('api GET (500) --debug', await adops(['api', 'GET', '/context/brands', '--retries', '0', '--debug']));
    faults = [];
  }, 180_000);

  it('doctor (table, json; a 401 echoing the key), auth status, config list', async () => {
    const doctor = await adops(['doctor', '-o', 'table']);
    expectNoKey('doctor (table)', doctor);
    expectNoKey('doctor -o json', await adops(['doctor', '-o', 'json']));
    faults = [{ method: 'GET', path: /^\/observe\/campaigns$/, fault: '401' }];
    const refused = await adops(['doctor', '-o', 'table']);
    expect(refused.code).toBe(3);
    expect(refused.stdout).toMatch(/key accepted: unauthorized: the key acr_…\w{4} is not valid Injected-Line/);
    expectNoKey('doctor (401 echoing the key)', refused);
    faults = [];
    expectNoKey('auth status', await adops(['auth', 'status']));
    expectNoKey('auth status -o json', await adops(['auth', 'status', '-o', 'json']));
    expectNoKey('config list', await adops(['config', 'list']));
  }, 120_000);

  it('a proxy variable that does not parse (a "/" in its password): errors, config list and doctor mask its user info', async () => {
    const PROXY = 'http://ops:pa/ss99Secret@host:port';
    // An https base URL off loopback (plain http to loopback never takes a proxy); nothing is sent: the variable is read first.
    const over = { HTTP_PROXY: PROXY, HTTPS_PROXY: PROXY, NO_PROXY: '', ADOPS_BASE_URL: 'https://adops.example.invalid' };
    for (const args of [
      ['observe', 'campaigns', 'list', '--advertiser', 'acc_acme_c_001'],
      ['config', 'list'],
      ['config', 'list', '-o', 'json'],
      ['doctor'],
      ['doctor', '-o', 'json'],
    ]) {
      const r = await adops(args, over);
      covered.push(`${args.join(' ')} with HTTP(S)_PROXY=${PROXY}`);
      expect(`${r.stdout}${r.stderr}`, `${args.join(' ')}:\n${r.stdout}${r.stderr}`).not.toContain('ss99Secret');
      expect(`${r.stdout}${r.stderr}`).not.toContain('pa/ss');
      expect(`${r.stdout}${r.stderr}`).toContain('ops:***@host');
    }
  }, 60_000);

  afterAll(() => {
    console.log(`key-echo: covered ${covered.length} runs:\n  ${covered.join('\n  ')}`);
  });
});
