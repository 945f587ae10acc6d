// Every command of the tree, run as a user runs it (the built binary) against
// a sandbox child, one test per command: a success whose output holds what the
// sandbox answered (an id, a field value), a failure with the exit code the
// docs promise, and a usage error that, pointed at a recording server, sends
// nothing at all. A command without a case here fails the test. The cases run
// in order against one shared sandbox (later ones use what earlier ones made).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRegistry } from '../../src/commands/index.js';
import { png } from '../unit/uploads/media-samples.js';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { DEMO, ensureBuilt, runAdopsTty, tempConfigDir, type RunResult } from '../helpers/cli.js';
import { startDemoSandbox, type DemoSandbox } from '../helpers/demo-sandbox.js';
import { startStub, type Stub } from './stub-server.js';
import { tempDir } from '../helpers/temp.js';

let sandbox: DemoSandbox;
let stub: Stub;
const cfg = tempConfigDir();
const env = (base: string) => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: base, ADOPS_API_KEY: DEMO.full });
// In process (helpers/run-in-process.ts); `… edit` needs a terminal and its $EDITOR, so it runs the binary (tty below).
const cli = (args: readonly string[], base = sandbox.url) => runAdopsInProcess(args, { env: env(base), timeoutMs: 20_000 });
const json = (r: RunResult) => JSON.parse(r.stdout) as Record<string, unknown>;
const work = tempDir('adops-every-');
/** An $EDITOR for `… edit`: renames whatever it is shown (the `name: …` line). */
const EDITOR = join(work, 'rename.sh');
writeFileSync(EDITOR, `#!/bin/sh\nsed -i 's/^name: .*/name: Edited by EDITOR/' "$1"\n`);
chmodSync(EDITOR, 0o755);
/** A file to upload, under the test's own folder. */
function mediaFile(name: string, bytes: Buffer): string {
  const file = join(work, name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  return file;
}
/** A changes file for `mutations apply`. */
function changesFile(name: string, text: string): string {
  const file = join(work, name);
  writeFileSync(file, text);
  return file;
}
/** A plan file for `plans apply`: the plan and one Line Item. */
function planFile(slug: string): string {
  const file = join(work, `${slug}.json`);
  writeFileSync(file, JSON.stringify({ slug, name: 'Applied', currency: 'USD', lineItems: [{ name: 'Search', budget: 100 }] }));
  return file;
}
/** `… edit` needs a terminal: run under script(1) with the editor above. */
const tty = (args: readonly string[]) => runAdopsTty(args, { env: { ...env(sandbox.url), EDITOR }, timeoutMs: 20_000 });

/** Ids learned while the success cases run (a created line item, an uploaded asset, …). */
const ids: Record<string, string> = {};
const A = 'acc_acme_a_001';
const C = 'acc_acme_c_001';

interface Case {
  /** Command path, e.g. 'skills update'. */
  command: string;
  ok: () => string[];
  /** Checks what the success printed (its content, not only exit 0); may record ids. */
  check: (r: RunResult) => void | Promise<void>;
  /** A failure the service answers (or the CLI refuses), and its exit code. */
  fail: () => string[];
  failCode: number;
  /** A usage error (exit 2, nothing sent). Defaults to `fail` when failCode is 2. */
  usage?: () => string[];
  /** What stdout holds on the failure: nothing, or for a batch its (empty) list of results. */
  failStdout?: string | RegExp;
  /** What stderr says on the failure (default: an `error: …` line). */
  failStderr?: RegExp;
  /** The success runs on a terminal (an `edit`); its output is the terminal's. */
  tty?: boolean;
}

/** `… edit` cases: on a terminal the editor's change is saved; off one it is a usage error, nothing sent. */
const editCase = (command: string, args: () => string[]): Case => ({
  command,
  tty: true,
  ok: () => [...command.split(' '), ...args()],
  // What was saved, on the terminal: the field the editor changed, at the revision the service gave.
  check: (r) => expect(r.stdout).toMatch(/saved .+: name \(revision \d+\)/),
  fail: () => [...command.split(' '), ...args()],
  failCode: 2,
});

/** The JSON document a success printed has these fields (a subset). */
const prints = (fields: Record<string, unknown>) => (r: RunResult) => expect(json(r), r.stdout).toMatchObject(fields);
/** A delete printed what the service answered about the row it removed. */
const deleted = (r: RunResult) => expect(r.stdout).toMatch(/"deleted":\s*true/);

async function firstStoredId(resource: string, advertiser: string): Promise<string> {
  const r = await cli(['observe', resource, '--advertiser', advertiser, '--limit', '1', '-o', 'json', '--fields', 'id']);
  return (JSON.parse(r.stdout) as Array<{ id: string }>)[0]!.id;
}

/** Send bytes to an upload URL as a client would (no key). */
async function put(url: string, body: Buffer, type: string): Promise<void> {
  const res = await fetch(url, { method: 'PUT', body, headers: { 'content-type': type } });
  expect(res.status).toBeLessThan(300);
}

/** An approved plan is frozen: archive it so `plans delete` can remove it. */
async function archivePlan(): Promise<void> {
  const plan = json(await cli(['plans', 'get', 'e2e-plan', '-o', 'json']));
  const r = await cli(['plans', 'update', 'e2e-plan', '--revision', String(plan.revision), '--status', 'archived', '-o', 'json']);
  expect(json(r).status).toBe('archived');
}

const observeCases = (word: string, resource: string, advertiser: string): Case[] => [
  {
    command: `observe ${word} list`,
    ok: () => ['observe', word, '--advertiser', advertiser, '--limit', '2', '-o', 'json'],
    check: (r) => expect((JSON.parse(r.stdout) as Array<{ id?: unknown }>).every((row) => typeof row.id === 'string')).toBe(true),
    fail: () => ['observe', word, '--live', 'acc_nobody_here', '--limit', '2'],
    failCode: 4,
    usage: () => ['observe', word, '--limit', '501'],
  },
  {
    command: `observe ${word} get`,
    ok: () => ['observe', word, 'get', advertiser, ids[resource]!, '-o', 'json'],
    check: (r) => expect(json(r).id).toBe(ids[resource]),
    fail: () => ['observe', word, 'get', advertiser, 'no-such-entity'],
    failCode: 4,
    usage: () => ['observe', word, 'get', advertiser.replace('acc_', 'adv_'), '1'],
  },
];

const CASES: Case[] = [
  {
    command: 'observe drift',
    ok: () => ['observe', 'drift', A, '--level', 'ad-groups', '-o', 'json'],
    check: (r) => expect(Array.isArray(JSON.parse(r.stdout))).toBe(true),
    fail: () => ['observe', 'drift', 'acc_acme_b_disconnected'],
    failCode: 5,
    usage: () => ['observe', 'drift', 'adv_1'],
  },
  {
    command: 'observe insights',
    ok: () => ['observe', 'insights', '--since', '2026-09-01', '--until', '2026-09-07', '--limit', '3', '-o', 'json'],
    check: (r) => expect(JSON.parse(r.stdout)[0]).toHaveProperty('spend'),
    fail: () => ['observe', 'insights', '--since', '2026-09-01', '--until', '2026-02-30'],
    failCode: 2,
  },
  ...observeCases('campaigns', 'campaign', A),
  ...observeCases('ad-groups', 'adGroup', A),
  ...observeCases('ads', 'ad', A),
  ...observeCases('creatives', 'creative', A),
  ...observeCases('asset-groups', 'assetGroup', C),

  {
    command: 'mutations start',
    ok: () => ['mutations', 'start', '--advertiser', A, '--action', 'pause', '-f', 'target.type=campaign', '-f', `target.id=${ids.campaign}`, '-o', 'json'],
    check: (r) => {
      expect(json(r)).toMatchObject({ id: expect.stringMatching(/^mut_/), action: 'pause', advertiserId: A });
      ids.mutation = String(json(r).id);
    },
    fail: () => ['mutations', 'start', '--advertiser', A, '--action', 'pause'],
    failCode: 2,
  },
  {
    command: 'mutations get',
    ok: () => ['mutations', 'get', ids.mutation!, '--wait', '--interval', '0.1', '-o', 'json'],
    check: (r) => expect(json(r).state).toBe('succeeded'),
    fail: () => ['mutations', 'get', 'mut_nope'],
    failCode: 4,
    usage: () => ['mutations', 'get', ''],
  },
  {
    command: 'mutations list',
    ok: () => ['mutations', 'list', '--limit', '5', '-o', 'json'],
    check: (r) => expect(JSON.parse(r.stdout).some((m: { id: string }) => m.id === ids.mutation)).toBe(true),
    fail: () => ['mutations', 'list', '--state', 'done'],
    failCode: 2,
  },

  ...(['pause', 'activate', 'archive'] as const).map((verb): Case => ({
    command: `mutations ${verb}`,
    ok: () => ['mutations', verb, A, '--campaign', ids.campaign!, '--wait', '--interval', '0.1', '-o', 'json'],
    check: (r) => expect(json(r).state).toBe('succeeded'),
    fail: () => ['mutations', verb, A],
    failCode: 2,
  })),
  {
    command: 'mutations delete',
    ok: () => ['mutations', 'delete', A, '--ad-group', ids.adGroup!, '--yes', '-o', 'json'],
    check: prints({ action: 'delete' }),
    fail: () => ['mutations', 'delete', A, '--ad-group', ids.adGroup!],
    failCode: 2,
  },
  {
    command: 'mutations rename',
    ok: () => ['mutations', 'rename', A, '--campaign', ids.campaign!, '--name', 'Renamed by e2e', '-o', 'json'],
    check: prints({ action: 'rename', changes: { name: 'Renamed by e2e' } }),
    fail: () => ['mutations', 'rename', A, '--campaign', ids.campaign!],
    failCode: 2,
  },
  {
    command: 'mutations budget',
    ok: () => ['mutations', 'budget', A, '--campaign', ids.budgetCampaign!, '--amount', '75', '--type', 'daily', '--wait', '--interval', '0.1', '-o', 'json'],
    check: (r) => expect(json(r).state).toBe('succeeded'),
    fail: () => ['mutations', 'budget', A, '--campaign', ids.budgetCampaign!, '--amount', '0.001'],
    failCode: 7,
    usage: () => ['mutations', 'budget', A, '--campaign', ids.budgetCampaign!, '--amount', 'lots'],
  },
  {
    command: 'mutations bid',
    ok: () => ['mutations', 'bid', A, '--ad-group', ids.adGroup!, '--strategy', 'LOWEST_COST_WITH_BID_CAP', '--amount', '5', '-o', 'json'],
    check: (r) => {
      expect(json(r).action).toBe('set_bid');
      expect(r.stdout).toContain('LOWEST_COST_WITH_BID_CAP');
    },
    fail: () => ['mutations', 'bid', A, '--ad-group', ids.adGroup!],
    failCode: 2,
  },
  {
    command: 'mutations watch',
    ok: () => ['mutations', 'watch', ids.mutation!, '--interval', '0.1', '-o', 'json'],
    check: (r) => expect(json(r).state).toBe('succeeded'),
    fail: () => ['mutations', 'watch', 'mut_nope', '--interval', '0.1'],
    failCode: 4,
    usage: () => ['mutations', 'watch', 'mut_1', '--timeout', 'soon'],
  },
  {
    command: 'mutations apply',
    ok: () => [
      'mutations',
      'apply',
      changesFile('ok.csv', `advertiserId,action,targetType,targetId,name\n${A},rename,campaign,${ids.campaign},Applied\n`),
      '--wait',
      '--interval',
      '0.1',
      '-o',
      'json',
    ],
    check: (r) => expect(JSON.parse(r.stdout)).toMatchObject([{ row: 2, action: 'rename', state: 'succeeded' }]),
    fail: () => ['mutations', 'apply', changesFile('bad.csv', `advertiserId,action,targetType,targetId\n${A},explode,campaign,1\n`)],
    failCode: 2,
  },
  {
    command: 'skills create',
    ok: () => ['skills', 'create', '--slug', 'e2e-skill', '--name', 'E2E', '-F', 'body="# hi"', '-o', 'json'],
    check: prints({ slug: 'e2e-skill', name: 'E2E' }),
    fail: () => ['skills', 'create', '--slug', 'e2e-skill', '--name', 'again'],
    failCode: 5,
    usage: () => ['skills', 'create', '--slug', 'x'],
  },
  {
    command: 'skills list',
    ok: () => ['skills', 'list', '-o', 'json'],
    check: (r) => expect(r.stdout).toContain('e2e-skill'),
    fail: () => ['skills', 'list', '--source', 'mine'],
    failCode: 2,
  },
  {
    command: 'skills get',
    ok: () => ['skills', 'get', 'e2e-skill', '-o', 'json'],
    check: (r) => expect(json(r).body).toBe('# hi'),
    fail: () => ['skills', 'get', 'nope'],
    failCode: 4,
    usage: () => ['skills', 'get', ''],
  },
  {
    command: 'skills update',
    ok: () => ['skills', 'update', 'e2e-skill', '--revision', '1', '--name', 'E2E 2', '-o', 'json'],
    check: (r) => expect(json(r).revision).toBe(2),
    fail: () => ['skills', 'update', 'e2e-skill', '--revision', '1', '--name', 'stale'],
    failCode: 5,
    usage: () => ['skills', 'update', 'e2e-skill', '--revision', 'two'],
  },
  editCase('skills edit', () => ['e2e-skill']),
  {
    command: 'skills catalog list',
    ok: () => ['skills', 'catalog', 'list', '-o', 'json'],
    check: (r) => {
      const [first] = JSON.parse(r.stdout) as Array<{ catalogSlug?: unknown }>;
      expect(first?.catalogSlug).toEqual(expect.any(String));
      ids.catalog = String(first?.catalogSlug);
    },
    fail: () => ['skills', 'catalog', 'list', '--cursor', 'garbage'],
    failCode: 7,
    usage: () => ['skills', 'catalog', 'list', '--limit', '0'],
  },
  {
    command: 'skills catalog import',
    ok: () => ['skills', 'catalog', 'import', ids.catalog!, '--slug', 'e2e-imported', '-o', 'json'],
    check: (r) => expect(json(r).source).toBe('catalog'),
    fail: () => ['skills', 'catalog', 'import', 'no-such-entry'],
    failCode: 4,
    usage: () => ['skills', 'catalog', 'import', ''],
  },
  {
    command: 'skills reimport',
    ok: () => ['skills', 'reimport', 'e2e-imported', '-o', 'json'],
    check: prints({ slug: 'e2e-imported', source: 'catalog' }),
    fail: () => ['skills', 'reimport', 'e2e-skill'],
    failCode: 7,
    usage: () => ['skills', 'reimport', 'e2e-imported', '--revision', '0'],
  },
  {
    command: 'skills delete',
    ok: () => ['skills', 'delete', 'e2e-imported', '--yes', '-o', 'json'],
    check: (r) => expect(json(r).deleted).toBe(true),
    fail: () => ['skills', 'delete', 'e2e-imported', '--yes'],
    failCode: 4,
    usage: () => ['skills', 'delete', 'e2e-skill'],
  },

  {
    command: 'brands create',
    ok: () => ['brands', 'create', '--slug', 'e2e-brand', '--name', 'E2E Brand', '--voice', 'Plain.', '-o', 'json'],
    check: prints({ slug: 'e2e-brand', name: 'E2E Brand' }),
    fail: () => ['brands', 'create', '--slug', 'Bad Slug', '--name', 'x'],
    failCode: 7,
    usage: () => ['brands', 'create', '--slug', 'y', '--name', 'y', '--logo-url', 'not a url'],
  },
  {
    command: 'brands list',
    ok: () => ['brands', 'list', '-o', 'json'],
    check: (r) => expect(r.stdout).toContain('e2e-brand'),
    fail: () => ['brands', 'list', '--cursor', 'x'],
    failCode: 7,
    usage: () => ['brands', 'list', '--limit', 'ten'],
  },
  {
    command: 'brands get',
    ok: () => ['brands', 'get', 'e2e-brand', '-o', 'json'],
    check: (r) => expect(json(r).voice).toBe('Plain.'),
    fail: () => ['brands', 'get', 'nope'],
    failCode: 4,
    usage: () => ['brands', 'get'],
  },
  {
    command: 'brands update',
    ok: () => ['brands', 'update', 'e2e-brand', '--revision', '1', '--description', 'd', '-o', 'json'],
    check: prints({ slug: 'e2e-brand', description: 'd', revision: 2 }),
    fail: () => ['brands', 'update', 'nope', '--revision', '1', '--description', 'd'],
    failCode: 4,
    usage: () => ['brands', 'update', 'e2e-brand', '--description', 'd', '-F', 'revision=one'],
  },
  editCase('brands edit', () => ['e2e-brand']),
  {
    command: 'brands advertisers attach',
    ok: () => ['brands', 'advertisers', 'attach', 'e2e-brand', '--advertiser', A, '-o', 'json'],
    check: (r) => expect(r.stdout).toContain(A),
    fail: () => ['brands', 'advertisers', 'attach', 'e2e-brand', '--advertiser', 'acc_not_ours'],
    failCode: 7,
    usage: () => ['brands', 'advertisers', 'attach', 'e2e-brand', '--advertiser', 'acme'],
  },
  {
    command: 'brands advertisers list',
    ok: () => ['brands', 'advertisers', 'list', 'e2e-brand', '-o', 'json'],
    check: (r) => expect(r.stdout).toContain(A),
    fail: () => ['brands', 'advertisers', 'list', 'nope'],
    failCode: 4,
    usage: () => ['brands', 'advertisers', 'list', 'e2e-brand', '--max', '0'],
  },
  {
    command: 'brands advertisers detach',
    ok: () => ['brands', 'advertisers', 'detach', 'e2e-brand', A, '--yes', '-o', 'json'],
    check: (r) => expect(r.stdout).toContain(A),
    fail: () => ['brands', 'advertisers', 'detach', 'e2e-brand', A, '--yes'],
    failCode: 4,
    usage: () => ['brands', 'advertisers', 'detach', 'e2e-brand', A],
  },
  {
    command: 'brands personas create',
    ok: () => ['brands', 'personas', 'create', 'e2e-brand', '--slug', 'hiker', '--name', 'Hiker', '-o', 'json'],
    check: prints({ slug: 'hiker', name: 'Hiker' }),
    fail: () => ['brands', 'personas', 'create', 'nope', '--slug', 'hiker', '--name', 'Hiker'],
    failCode: 4,
    usage: () => ['brands', 'personas', 'create', 'e2e-brand', '--slug', 'hiker'],
  },
  {
    command: 'brands personas list',
    ok: () => ['brands', 'personas', 'list', 'e2e-brand', '-o', 'json'],
    check: (r) => expect(r.stdout).toContain('hiker'),
    fail: () => ['brands', 'personas', 'list', 'nope'],
    failCode: 4,
    usage: () => ['brands', 'personas', 'list'],
  },
  {
    command: 'brands personas get',
    ok: () => ['brands', 'personas', 'get', 'e2e-brand', 'hiker', '-o', 'json'],
    check: prints({ slug: 'hiker', name: 'Hiker' }),
    fail: () => ['brands', 'personas', 'get', 'e2e-brand', 'nope'],
    failCode: 4,
    usage: () => ['brands', 'personas', 'get', 'e2e-brand'],
  },
  {
    command: 'brands personas update',
    ok: () => ['brands', 'personas', 'update', 'e2e-brand', 'hiker', '--revision', '1', '--name', 'Hikers', '-o', 'json'],
    check: prints({ slug: 'hiker', name: 'Hikers', revision: 2 }),
    fail: () => ['brands', 'personas', 'update', 'e2e-brand', 'hiker', '--revision', '1', '--name', 'stale'],
    failCode: 5,
    usage: () => ['brands', 'personas', 'update', 'e2e-brand', 'hiker', '--revision', '1', '--name', ''],
  },
  editCase('brands personas edit', () => ['e2e-brand', 'hiker']),
  {
    command: 'brands personas delete',
    ok: () => ['brands', 'personas', 'delete', 'e2e-brand', 'hiker', '--yes', '-o', 'json'],
    check: deleted,
    fail: () => ['brands', 'personas', 'delete', 'e2e-brand', 'hiker', '--yes'],
    failCode: 4,
    usage: () => ['brands', 'personas', 'delete', 'e2e-brand', 'hiker'],
  },
  {
    command: 'brands documents reserve',
    ok: () => ['brands', 'documents', 'reserve', 'e2e-brand', '--filename', 'notes.md', '--content-type', 'text/markdown', '-o', 'json'],
    check: (r) => {
      const doc = json(r);
      expect(doc).toMatchObject({ uploadUrl: expect.any(String) });
      ids.document = String(doc.documentId ?? doc.id);
      ids.documentUrl = String(doc.uploadUrl);
    },
    fail: () => ['brands', 'documents', 'reserve', 'e2e-brand', '--filename', 'x.exe', '--content-type', 'application/x-msdownload'],
    failCode: 7,
    usage: () => ['brands', 'documents', 'reserve', 'e2e-brand', '--filename', 'x.md'],
  },
  {
    command: 'brands documents finalize',
    ok: () => ['brands', 'documents', 'finalize', 'e2e-brand', ids.document!, '-o', 'json'],
    check: (r) => expect(json(r).state).toBe('ready'),
    fail: () => ['brands', 'documents', 'finalize', 'e2e-brand', 'doc_nope'],
    failCode: 4,
    usage: () => ['brands', 'documents', 'finalize', 'e2e-brand', ''],
  },
  {
    command: 'brands documents upload',
    ok: () => ['brands', 'documents', 'upload', 'e2e-brand', mediaFile('brief.md', Buffer.from('# Brief\nplain words\n')), '-o', 'json'],
    check: (r) => expect(JSON.parse(r.stdout)[0]).toMatchObject({ state: 'ready' }),
    fail: () => ['brands', 'documents', 'upload', 'nope', join(work, 'brief.md')],
    failCode: 4,
    usage: () => ['brands', 'documents', 'upload', 'e2e-brand'],
  },
  {
    command: 'brands documents list',
    ok: () => ['brands', 'documents', 'list', 'e2e-brand', '-o', 'json'],
    check: (r) => expect(r.stdout).toContain(ids.document!),
    fail: () => ['brands', 'documents', 'list', 'nope'],
    failCode: 4,
    usage: () => ['brands', 'documents', 'list', 'e2e-brand', '--state', 'done'],
  },
  {
    command: 'brands documents get',
    ok: () => ['brands', 'documents', 'get', 'e2e-brand', ids.document!, '-o', 'json'],
    check: prints({ filename: 'notes.md', state: 'ready' }),
    fail: () => ['brands', 'documents', 'get', 'e2e-brand', 'doc_nope'],
    failCode: 4,
    usage: () => ['brands', 'documents', 'get', 'e2e-brand', ''],
  },
  {
    command: 'brands documents delete',
    ok: () => ['brands', 'documents', 'delete', 'e2e-brand', ids.document!, '--yes', '-o', 'json'],
    check: deleted,
    fail: () => ['brands', 'documents', 'delete', 'e2e-brand', ids.document!, '--yes'],
    failCode: 4,
    usage: () => ['brands', 'documents', 'delete', 'e2e-brand', 'doc_1'],
  },

  {
    command: 'plans create',
    ok: () => ['plans', 'create', '--slug', 'e2e-plan', '--name', 'E2E plan', '--currency', 'USD', '--budget', '1000', '-o', 'json'],
    check: prints({ slug: 'e2e-plan', name: 'E2E plan', currency: 'USD', budget: 1000 }),
    fail: () => ['plans', 'create', '--slug', 'e2e-plan', '--name', 'again', '--currency', 'EUR'],
    failCode: 5,
    usage: () => ['plans', 'create', '--slug', 'p', '--name', 'p', '--currency', 'EUR', '--start-date', '2027-02-30'],
  },
  {
    command: 'plans list',
    ok: () => ['plans', 'list', '-o', 'json'],
    check: (r) => expect(r.stdout).toContain('e2e-plan'),
    fail: () => ['plans', 'list', '--status', 'live'],
    failCode: 2,
  },
  {
    command: 'plans line-items add',
    ok: () => [
      'plans',
      'line-items',
      'add',
      'e2e-plan',
      '--name',
      'Search',
      '--provider',
      'provider_c',
      '--advertiser',
      C,
      '--budget',
      '500',
      '--budget-type',
      'lifetime',
      '--objective',
      'SALES',
      '--start-date',
      '2027-03-01',
      '--end-date',
      '2027-03-31',
      '-o',
      'json',
    ],
    check: async (r) => {
      expect(json(r)).toMatchObject({ lineItemId: expect.any(String), name: 'Search', budget: 500 });
      ids.lineItem = String(json(r).lineItemId);
      // A second one, for `line-items delete` (an approved plan is frozen).
      ids.lineItem2 = String(json(await cli(['plans', 'line-items', 'add', 'e2e-plan', '--name', 'Spare', '-o', 'json'])).lineItemId);
    },
    fail: () => ['plans', 'line-items', 'add', 'nope', '--name', 'x'],
    failCode: 4,
    usage: () => ['plans', 'line-items', 'add', 'e2e-plan', '--name', 'x', '--budget', 'lots'],
  },
  {
    command: 'plans get',
    ok: () => ['plans', 'get', 'e2e-plan', '-o', 'json'],
    check: (r) => expect(r.stdout).toContain(ids.lineItem!),
    fail: () => ['plans', 'get', 'nope'],
    failCode: 4,
    usage: () => ['plans', 'get', ''],
  },
  {
    command: 'plans update',
    ok: () => ['plans', 'update', 'e2e-plan', '--revision', '1', '--description', 'Q1', '-o', 'json'],
    check: prints({ slug: 'e2e-plan', description: 'Q1' }),
    fail: () => ['plans', 'update', 'e2e-plan', '--revision', '1', '--description', 'stale'],
    failCode: 5,
    usage: () => ['plans', 'update', 'e2e-plan', '--revision', '1', '--status', 'approved'],
  },
  {
    command: 'plans line-items update',
    ok: () => ['plans', 'line-items', 'update', 'e2e-plan', ids.lineItem!, '--revision', '1', '--budget', '600', '-o', 'json'],
    check: (r) => expect(json(r)).toMatchObject({ lineItemId: ids.lineItem, budget: 600 }),
    fail: () => ['plans', 'line-items', 'update', 'e2e-plan', 'li_nope', '--revision', '1', '--budget', '1'],
    failCode: 4,
    usage: () => ['plans', 'line-items', 'update', 'e2e-plan', ids.lineItem!, '--revision', '1', '--budget-type', 'weekly'],
  },
  editCase('plans edit', () => ['e2e-plan']),
  editCase('plans line-items edit', () => ['e2e-plan', ids.lineItem!]),
  {
    command: 'plans line-items validate',
    ok: () => ['plans', 'line-items', 'validate', 'e2e-plan', ids.lineItem!, '-o', 'json'],
    check: prints({ valid: true }),
    fail: () => ['plans', 'line-items', 'validate', 'e2e-plan', 'li_nope'],
    failCode: 4,
    usage: () => ['plans', 'line-items', 'validate', 'e2e-plan', ''],
  },
  {
    command: 'plans line-items delete',
    ok: () => ['plans', 'line-items', 'delete', 'e2e-plan', ids.lineItem2!, '--yes', '-o', 'json'],
    check: deleted,
    fail: () => ['plans', 'line-items', 'delete', 'e2e-plan', ids.lineItem2!, '--yes'],
    failCode: 4,
    usage: () => ['plans', 'line-items', 'delete', 'e2e-plan', ids.lineItem2!],
  },
  {
    command: 'plans approve',
    ok: () => ['plans', 'approve', 'e2e-plan', '-o', 'json'],
    check: (r) => expect(json(r).status).toBe('approved'),
    fail: () => ['plans', 'approve', 'nope'],
    failCode: 4,
    usage: () => ['plans', 'approve', 'e2e-plan', '--revision', '-1'],
  },
  {
    command: 'plans line-items readiness',
    ok: () => ['plans', 'line-items', 'readiness', 'e2e-plan', ids.lineItem!, '-o', 'json'],
    check: prints({ ready: true }),
    fail: () => ['plans', 'line-items', 'readiness', 'e2e-plan', 'li_nope'],
    failCode: 4,
    usage: () => ['plans', 'line-items', 'readiness', 'e2e-plan'],
  },
  {
    command: 'plans line-items record',
    ok: () => [
      'plans',
      'line-items',
      'record',
      'e2e-plan',
      ids.lineItem!,
      '--provider',
      'provider_c',
      '--entity-type',
      'campaign',
      '--entity-id',
      '261300300151',
      '-o',
      'json',
    ],
    check: async (r) => {
      expect(r.stdout).toContain('261300300151');
      await archivePlan();
    },
    fail: () => ['plans', 'line-items', 'record', 'e2e-plan', 'li_nope', '--provider', 'provider_c', '--entity-type', 'campaign', '--entity-id', '1'],
    failCode: 4,
    usage: () => ['plans', 'line-items', 'record', 'e2e-plan', ids.lineItem!, '--provider', 'provider_c', '--entity-type', 'keyword', '--entity-id', '1'],
  },
  {
    command: 'plans delete',
    ok: () => ['plans', 'delete', 'e2e-plan', '--yes', '-o', 'json'],
    check: deleted,
    fail: () => ['plans', 'delete', 'e2e-plan', '--yes'],
    failCode: 4,
    usage: () => ['plans', 'delete', 'e2e-plan'],
  },
  {
    command: 'plans verify',
    ok: () => ['plans', 'verify', 'acme-autumn-social', '-o', 'json'],
    check: (r) => expect(JSON.parse(r.stdout)).toEqual([]),
    fail: () => ['plans', 'verify', 'nope'],
    failCode: 4,
    usage: () => ['plans', 'verify'],
  },
  {
    command: 'plans pacing',
    ok: () => ['plans', 'pacing', 'acme-autumn-social', '--as-of', '2026-09-30', '-o', 'json'],
    check: (r) => expect(JSON.parse(r.stdout)[0]).toMatchObject({ lineItemId: 'li_demo_prospecting', daysElapsed: 30 }),
    fail: () => ['plans', 'pacing', 'acme-autumn-social', '--line-item', 'li_nope'],
    failCode: 4,
    usage: () => ['plans', 'pacing', 'acme-autumn-social', '--band', '110,90'],
  },
  {
    command: 'plans apply',
    ok: () => ['plans', 'apply', planFile('e2e-applied'), '-o', 'json'],
    check: (r) => expect(JSON.stringify(json(r))).toContain('e2e-applied'),
    fail: () => ['plans', 'apply', planFile('e2e-applied')],
    failCode: 5,
    usage: () => ['plans', 'apply', join(work, 'no-such-plan.json')],
  },
  {
    command: 'brands delete',
    ok: () => ['brands', 'delete', 'e2e-brand', '--yes', '-o', 'json'],
    check: deleted,
    fail: () => ['brands', 'delete', 'e2e-brand', '--yes'],
    failCode: 4,
    usage: () => ['brands', 'delete', 'e2e-brand'],
  },
  {
    command: 'skills delete',
    ok: () => ['skills', 'delete', 'e2e-skill', '--yes', '-o', 'json'],
    check: deleted,
    fail: () => ['skills', 'delete', 'e2e-skill', '--yes'],
    failCode: 4,
    usage: () => ['skills', 'delete', ''],
  },

  {
    command: 'assets reserve',
    ok: () => ['assets', 'reserve', '--filename', 'hero.png', '-o', 'json'],
    check: (r) => {
      expect(json(r)).toMatchObject({ id: expect.stringMatching(/^ast_/), uploadUrl: expect.any(String) });
      ids.asset = String(json(r).id);
      ids.assetUrl = String(json(r).uploadUrl);
    },
    fail: () => ['assets', 'reserve', '--filename', ''],
    failCode: 2,
  },
  {
    command: 'assets finalize',
    ok: () => ['assets', 'finalize', ids.asset!, '-o', 'json'],
    check: (r) => expect(json(r).state).toBe('ready'),
    fail: () => ['assets', 'finalize', 'ast_nope'],
    failCode: 4,
    usage: () => ['assets', 'finalize', ''],
  },
  {
    command: 'assets list',
    ok: () => ['assets', 'list', '-o', 'json'],
    check: (r) => expect(r.stdout).toContain(ids.asset!),
    fail: () => ['assets', 'list', '--kind', 'audio'],
    failCode: 2,
  },
  {
    command: 'assets get',
    ok: () => ['assets', 'get', ids.asset!, '-o', 'json'],
    check: (r) => expect(json(r).mimeType).toBe('image/png'),
    fail: () => ['assets', 'get', 'ast_nope'],
    failCode: 4,
    usage: () => ['assets', 'get', ''],
  },
  {
    command: 'assets rename',
    ok: () => ['assets', 'rename', ids.asset!, '--revision', '2', '--filename', 'hero-2.png', '-o', 'json'],
    check: prints({ filename: 'hero-2.png' }),
    fail: () => ['assets', 'rename', ids.asset!, '--revision', '1', '--filename', 'stale.png'],
    failCode: 5,
    usage: () => ['assets', 'rename', ids.asset!, '--revision', '2'],
  },
  {
    command: 'assets register',
    ok: () => ['assets', 'register', ids.asset!, '--advertiser', A, '-o', 'json'],
    check: (r) => expect(r.stdout).toContain(A),
    fail: () => ['assets', 'register', ids.asset!, '--advertiser', 'acc_not_ours'],
    failCode: 7,
    usage: () => ['assets', 'register', ids.asset!, '--advertiser', 'acme'],
  },
  {
    command: 'assets upload',
    ok: () => ['assets', 'upload', mediaFile('up/logo.png', png()), '--register', A, '-o', 'json'],
    check: (r) => expect(JSON.parse(r.stdout)[0]).toMatchObject({ state: 'ready', mimeType: 'image/png' }),
    fail: () => ['assets', 'upload', mediaFile('notes.txt', Buffer.from('plain text, not media\n'))],
    failCode: 7,
    failStdout: '[]\n',
    failStderr: /1 of 1 file not done:\n.*notes\.txt/,
    usage: () => ['assets', 'upload', mediaFile('a.png', png()), mediaFile('b.png', png(8, 8)), '--name', 'both.png'],
  },
  {
    command: 'assets sync',
    ok: () => ['assets', 'sync', join(work, 'up'), '-o', 'json'],
    // logo.png went up with `assets upload`: the sync finds it there.
    check: (r) => expect(JSON.parse(r.stdout)).toMatchObject([{ filename: 'logo.png', result: 'already there' }]),
    fail: () => ['assets', 'sync', join(work, 'up'), '--register', 'acc_not_ours'],
    failCode: 7,
    // One row per file, saying what happened to it.
    failStdout: /"result":"failed".*advertiser_not_owned/,
    failStderr: /not done:\n.*advertiser_not_owned/,
    usage: () => ['assets', 'sync', join(work, 'no-such-dir')],
  },
  {
    command: 'assets delete',
    ok: () => ['assets', 'delete', ids.asset!, '--yes', '-o', 'json'],
    check: (r) => expect(json(r)).toMatchObject({ deleted: true, id: ids.asset }),
    fail: () => ['assets', 'delete', ids.asset!, '--yes'],
    failCode: 4,
    usage: () => ['assets', 'delete', ids.asset!],
  },
];

beforeAll(async () => {
  ensureBuilt();
  [sandbox, stub] = await Promise.all([startDemoSandbox(), startStub()]);
  ids.campaign = await firstStoredId('campaigns', A);
  const budgeted = await cli(['observe', 'campaigns', '--advertiser', A, '--limit', '100', '-o', 'json', '--query', "[?budgetLevel=='campaign'] | [0].id"]);
  ids.budgetCampaign = JSON.parse(budgeted.stdout) as string;
  ids.adGroup = await firstStoredId('ad-groups', A);
  ids.ad = await firstStoredId('ads', A);
  ids.creative = await firstStoredId('creatives', A);
  ids.assetGroup = await firstStoredId('asset-groups', C);
}, 60_000);

afterAll(async () => {
  await stub?.close();
  await sandbox?.stop();
});

describe('every command', () => {
  it('has a case here: every command that performs an operation', () => {
    const covered = new Set(CASES.map((c) => c.command));
    const leaves = getRegistry()
      .commands.filter((c) => c.operationId || c.flowOperations)
      .map((c) => c.path.join(' '));
    expect(leaves.filter((p) => !covered.has(p))).toEqual([]);
  });

  // One test per command, in order: later cases use what earlier ones made.
  it.each(CASES)(
    '$command: succeeds with the answer, fails with its exit code, a usage error sends nothing',
    async (c) => {
      if (c.command === 'brands documents finalize') await put(ids.documentUrl!, Buffer.from('# Notes\nplain text\n'), 'text/markdown');
      if (c.command === 'assets finalize') await put(ids.assetUrl!, png(), 'image/png');
      const ok = c.tty ? await tty(c.ok()) : await cli(c.ok());
      expect(ok.code, `${c.command} (success): ${ok.stderr}`).toBe(0);
      await c.check(ok);
      const fail = await cli(c.fail());
      expect(fail.code, `${c.command} (failure): ${fail.stderr}`).toBe(c.failCode);
      if (c.failStdout instanceof RegExp) expect(fail.stdout, c.command).toMatch(c.failStdout);
      else expect(fail.stdout, c.command).toBe(c.failStdout ?? '');
      expect(fail.stderr, c.command).toMatch(c.failStderr ?? /^error: /m);

      const args = c.usage?.() ?? (c.failCode === 2 ? c.fail() : undefined);
      expect(args, `${c.command} has no usage case`).toBeDefined();
      const before = stub.requests.length;
      const usage = await cli(args!, stub.url);
      expect(usage.code, `${c.command}: ${args!.join(' ')}\n${usage.stderr}`).toBe(2);
      expect(stub.requests.length, `${c.command} sent a request`).toBe(before);
    },
    60_000,
  );
});
