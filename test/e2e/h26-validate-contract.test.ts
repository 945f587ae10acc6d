// One check of the contract (issue 26): the CLI checks a whole request body with the very schema
// the sandbox publishes (compiled by ajv at `npm run gen`), before sending. A body that breaks it
// (a nested field, an array's items, a rule only the schema carries) is exit 2 against a recorder
// that must see nothing; a name the schema does not list still warns and is sent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO, ensureBuilt } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { tempDir } from '../helpers/temp.js';

interface Seen {
  method: string;
  url: string;
  body: string;
}

let server: Server;
let url = '';
const seen: Seen[] = [];
let dir = '';

beforeAll(async () => {
  ensureBuilt();
  dir = tempDir('adops-h26-validate-');
  // Records every request and answers 404: these tests only ask whether anything was sent, and what.
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body });
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'not_found', message: 'recorder' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

beforeEach(() => {
  seen.splice(0);
});

const run = (args: string[]) => runAdopsInProcess(args, { env: { ADOPS_BASE_URL: url, ADOPS_API_KEY: DEMO.full, ADOPS_CONFIG_DIR: join(dir, 'config') } });
const START = ['mutations', 'start', '--advertiser', 'acc_1', '-f', 'target.type=campaign'];

describe('a body that breaks the contract is exit 2 and nothing is sent', () => {
  const cases: Array<{ name: string; args: string[]; says: RegExp }> = [
    {
      name: 'mutations start: a nested target.id past 200 characters',
      args: [...START, '--action', 'pause', '-f', `target.id=${'9'.repeat(201)}`],
      says: /-f target\.id must be at most 200 characters/,
    },
    {
      name: 'mutations start: a nested budget.type outside its choices',
      args: [...START, '--action', 'set_budget', '-f', 'target.id=1', '-F', 'budget.amount=50', '-f', 'budget.type=weekly'],
      says: /-f budget\.type must be one of daily, lifetime, got "weekly"/,
    },
    {
      name: 'mutations start: a nested number given as text',
      args: [...START, '--action', 'set_budget', '-f', 'target.id=1', '-f', 'budget.amount=50'],
      says: /-f budget\.amount must be a number[^]*-F key=value sends JSON/,
    },
    {
      name: 'mutations start: a field of another action (the union picks the shape by action)',
      args: [...START, '--action', 'pause', '-f', 'target.id=1', '-f', 'name=x'],
      says: /-f name is not a field of action pause \(it takes advertiserId, target, action\)/,
    },
    {
      name: 'mutations start: set_bid with neither of its two fields',
      args: [...START, '--action', 'set_bid', '-f', 'target.id=1'],
      says: /set_bid needs bidStrategy or bidAmount/,
    },
    {
      name: 'mutations pause: an Idempotency-Key the headers schema refuses (a space is not visible ASCII)',
      args: ['mutations', 'pause', 'acc_1', '--campaign', '1', '--idempotency-key', 'a b'],
      says: /--idempotency-key must match/,
    },
    {
      name: 'brands personas create: an array item past its bound (goals items are 1-500 characters)',
      args: ['brands', 'personas', 'create', 'acme', '--slug', 'hiker', '--name', 'Hiker', '-F', `goals=["ok","${'g'.repeat(501)}"]`],
      says: /-F goals \(goals\.1\) must be at most 500 characters/,
    },
    {
      name: 'brands personas create: more array items than the schema allows (50)',
      args: [
        'brands',
        'personas',
        'create',
        'acme',
        '--slug',
        'hiker',
        '--name',
        'Hiker',
        '--channels',
        Array.from({ length: 51 }, (_, i) => `c${i}`).join(','),
      ],
      says: /--channels must hold at most 50 items/,
    },
    {
      name: 'brands create: a logo URL that is not http(s)',
      args: ['brands', 'create', '--slug', 'acme2', '--name', 'Acme', '--logo-url', 'ftp://files.example/logo.png'],
      says: /--logo-url must match/,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await run(c.args);
      expect(r.stderr).toMatch(c.says);
      expect(r.stderr).toMatch(/nothing was sent/);
      expect(r.code, r.stderr).toBe(2);
      expect(seen).toEqual([]);
    });
  }

  it('mutations start --input: the problem names the file and the JSON pointer', async () => {
    const file = join(dir, 'change.json');
    writeFileSync(
      file,
      JSON.stringify({ advertiserId: 'acc_1', action: 'set_budget', target: { type: 'campaign', id: '1' }, budget: { amount: 5, type: 'weekly' } }),
    );
    const r = await run(['mutations', 'start', '--input', file]);
    expect(r.stderr).toContain(`--input ${file} at /budget/type must be one of daily, lifetime`);
    expect(r.code, r.stderr).toBe(2);
    expect(seen).toEqual([]);
  });

  it('mutations apply (NDJSON): a row whose nested field breaks the schema refuses the file, naming its line', async () => {
    const file = join(dir, 'changes.ndjson');
    const row = (budget: object) => JSON.stringify({ advertiserId: 'acc_1', action: 'set_budget', target: { type: 'campaign', id: '1' }, budget });
    writeFileSync(file, `${row({ amount: 5 })}\n${row({ amount: 5, type: 'weekly' })}\n`);
    const r = await run(['mutations', 'apply', file]);
    expect(r.stderr).toMatch(/line 2: budget\.type must be one of daily, lifetime/);
    expect(r.code, r.stderr).toBe(2);
    expect(seen).toEqual([]);
  });
});

describe('what the schema does not list, and what it accepts', () => {
  it('a field the published schema does not list (top level or nested) warns, naming the known ones, and is sent', async () => {
    const r = await run([...START, '--action', 'pause', '-f', 'target.id=1', '-f', 'target.region=eu', '-f', 'priority=high']);
    expect(r.stderr).toMatch(/"priority" is not a body field of createMutation; sending it anyway\. Known: advertiserId, target, action/);
    expect(r.stderr).toMatch(/"target\.region" is not a body field of createMutation; sending it anyway\. Known: type, id/);
    const posts = seen.filter((s) => s.method === 'POST');
    expect(posts.length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(posts[0]!.body)).toEqual({
      advertiserId: 'acc_1',
      action: 'pause',
      target: { type: 'campaign', id: '1', region: 'eu' },
      priority: 'high',
    });
  });

  it('a valid body is sent as it was built, without a warning', async () => {
    const r = await run([...START, '--action', 'set_budget', '-f', 'target.id=1', '-F', 'budget={"amount":50,"type":"daily"}']);
    expect(r.stderr).not.toMatch(/warning|nothing was sent/);
    const posts = seen.filter((s) => s.method === 'POST');
    expect(posts.length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(posts[0]!.body)).toEqual({
      advertiserId: 'acc_1',
      action: 'set_budget',
      target: { type: 'campaign', id: '1' },
      budget: { amount: 50, type: 'daily' },
    });
  });
});
