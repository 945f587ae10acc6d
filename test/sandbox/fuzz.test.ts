// Property-based fuzzing of EVERY operation in the operation table: malformed
// path params, queries, bodies (not JSON, wrong types, huge strings, unicode,
// prototype-pollution keys), Authorization forms and cursors. Properties:
//   - never a 5xx, except 501/502 which the spec allows for live reads;
//   - every failure is JSON matching the common error schema;
//   - invalid_request issues are well formed and never repeat a value that was sent.
// numRuns is kept modest so the file stays well under 20 s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OPERATIONS, fillPath, pathParams } from '../../src/contract/operations.js';
import type { OperationDef } from '../../src/contract/operations.js';
import { ENTITY_STATUSES, PERMISSIONS, PROVIDER_FILTER_VALUES } from '../../src/contract/ids.js';
import { ISSUE_LOCATIONS } from '../../src/contract/errors.js';
import { errorBodySchema } from '../../src/contract/schemas/common.js';
import { generateDemoEntities } from '../../src/sandbox/providers/demo-entities.js';
import { hostileString } from '../helpers/hostile-text.js';
import { minimalWorld, startTestSandbox, withAdvertiser, withOrganization } from '../helpers/sandbox.js';
import type { TestResponse, TestSandbox } from '../helpers/sandbox.js';
import { bodySchema, perturb, queryArb as docQueryArb, schemaArb } from './platform/openapi-arb.js';
import type { OpenApiDoc, Vocabulary } from './platform/openapi-arb.js';

const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 12);

const ADVERTISERS = [
  { id: 'acc_fuzz_a', provider: 'provider_a', currency: 'USD', connection: 'connected' },
  { id: 'acc_fuzz_b', provider: 'provider_b', currency: 'EUR', connection: 'connected' },
  { id: 'acc_fuzz_c', provider: 'provider_c', currency: null, connection: 'no_write_access' },
  { id: 'acc_fuzz_d', provider: 'provider_d', currency: 'USD', connection: 'not_connected' },
] as const;

function fuzzWorld() {
  let w = withOrganization(minimalWorld(), 'org_other');
  for (const a of ADVERTISERS) {
    const seed = { ...a, organization: 'org_test', name: a.id };
    w = withAdvertiser(w, { ...generateDemoEntities(seed), ...seed });
  }
  return w;
}

// Words of the interface: they may legitimately appear in our messages (e.g. "must be one of: ACTIVE, …").
const VOCABULARY = [...PROVIDER_FILTER_VALUES, ...ENTITY_STATUSES, ...PERMISSIONS, ...ADVERTISERS.map((a) => a.id), 'acc_', 'acr_'];
const SPECIAL = [
  '',
  ' ',
  '%',
  '%00',
  '%2F',
  '..',
  '../..',
  '__proto__',
  'constructor',
  'prototype',
  'null',
  'true',
  '-1',
  '0',
  '1',
  '500',
  '501',
  '1e3',
  '0x10',
  'NaN',
  '\u0000',
  '\u202e',
  '\ud83d\ude00',
  ...VOCABULARY,
];

const text = (max: number) =>
  fc.oneof(fc.string({ maxLength: max }), fc.string({ unit: 'grapheme', maxLength: max }), hostileString({ maxLength: max }), fc.constantFrom(...SPECIAL));
const pathValue = fc.oneof(text(60), fc.constantFrom(...ADVERTISERS.map((a) => a.id), 'acc_unknown', '1', 'a-slug')).filter((s) => s.length > 0);
const QUERY_KEYS = [
  'limit',
  'cursor',
  'ids',
  'status',
  'provider',
  'advertiserId',
  'campaignId',
  'adGroupId',
  'from',
  'to',
  'level',
  'groupBy',
  'breakdown',
  'q',
  'state',
];
const queryArb = fc.dictionary(
  fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ minLength: 1, maxLength: 10 })),
  fc.oneof(text(200), fc.array(text(30), { minLength: 2, maxLength: 3 })),
  {
    maxKeys: 5,
  },
);

const BODY_KEYS = [
  'name',
  'slug',
  'title',
  'description',
  'filename',
  'contentType',
  'advertiserId',
  'amount',
  'currency',
  'budget',
  'status',
  'type',
  'action',
  'currentRevision',
  'markdown',
  'sections',
  'lineItems',
  '__proto__',
  'constructor',
];
const objectBody = fc.dictionary(fc.oneof(fc.constantFrom(...BODY_KEYS), fc.string({ maxLength: 12 })), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });

type BodyCase = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; contentType?: string };

const bodyArb: fc.Arbitrary<BodyCase> = fc.oneof(
  fc.constant<BodyCase>({ kind: 'none' }),
  objectBody.map<BodyCase>((value) => ({ kind: 'json', value })),
  fc.jsonValue({ maxDepth: 4 }).map<BodyCase>((value) => ({ kind: 'json', value })),
  fc.string({ maxLength: 50 }).map<BodyCase>((s) => ({ kind: 'json', value: { name: s.repeat(2000), slug: s, filename: s } })),
  fc
    .constantFrom('{', '{"a":', '[1,', '{"name":"x",}', "{'a':1}", 'undefined', '\u0000', '{"__proto__":')
    .map<BodyCase>((t) => ({ kind: 'raw', text: t, contentType: 'application/json' })),
  fc
    .tuple(
      fc.string({ maxLength: 40 }),
      fc.constantFrom(
        'text/plain',
        'application/xml',
        'multipart/form-data',
        'application/x-www-form-urlencoded',
        'application/json; charset=latin1',
        'application/problem+json',
      ),
    )
    .map<BodyCase>(([t, contentType]) => ({ kind: 'raw', text: t, contentType })),
  fc.string({ maxLength: 40 }).map<BodyCase>((t) => ({ kind: 'raw', text: t })),
);

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 });
type AuthCase = { key: 'full' } | { header: string | null };
const authArb: fc.Arbitrary<AuthCase> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<AuthCase>({ key: 'full' }) },
  { weight: 1, arbitrary: fc.constant<AuthCase>({ header: null }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        'Bearer',
        'Bearer ',
        'Bearer acr_',
        'bearer acr_test_full_0001 extra',
        'Basic YTpi',
        'Bearer  acr_test_full_0001',
        'Token acr_test_full_0001',
        'Bearer acr_test_org_other_0001',
      )
      .map<AuthCase>((header) => ({ header })),
  },
  { weight: 1, arbitrary: printable.map<AuthCase>((s) => ({ header: s })) },
  { weight: 1, arbitrary: printable.map<AuthCase>((s) => ({ header: `Bearer acr_${s.replace(/\s/g, '')}` })) },
);

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ world: fuzzWorld() });
});
afterAll(() => sb?.close());

/** Every string leaf that was sent as a value (not a key). */
function sentStrings(values: unknown[]): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  values.forEach(walk);
  // Short strings and interface words can occur in our own sentences by coincidence.
  return out.filter((s) => s.trim().length >= 6 && !VOCABULARY.some((w) => w.includes(s) || s === w));
}

const seenStatuses = new Map<number, number>();

function checkResponse(res: TestResponse, sent: unknown[], label: string): void {
  if (label !== 'self') seenStatuses.set(res.status, (seenStatuses.get(res.status) ?? 0) + 1);
  const allowed5xx = res.status === 501 || res.status === 502;
  expect(res.status < 500 || allowed5xx, `${label} → ${res.status} ${res.text.slice(0, 300)}`).toBe(true);
  if (res.status < 400) return;
  expect(res.headers.get('content-type') ?? '', `${label}: failure must be JSON`).toMatch(/application\/json/);
  const parsed = errorBodySchema.safeParse(res.body);
  expect(parsed.success, `${label}: failure body ${res.text.slice(0, 300)}`).toBe(true);
  if (res.body.error !== 'invalid_request') return;
  expect(res.status).toBe(400);
  expect(Array.isArray(res.body.issues) && res.body.issues.length > 0, `${label}: issues`).toBe(true);
  const sentValues = sentStrings(sent);
  for (const issue of res.body.issues as Array<{ in: string; path: string; message: string }>) {
    expect(ISSUE_LOCATIONS as readonly string[]).toContain(issue.in);
    expect(typeof issue.path === 'string' && (issue.path === '' || issue.path.startsWith('/')), `${label}: path ${issue.path}`).toBe(true);
    expect(typeof issue.message).toBe('string');
    for (const v of sentValues) {
      expect(issue.message.includes(v), `${label}: issue message repeats a sent value`).toBe(false);
    }
  }
  for (const v of sentValues) expect(res.body.message.includes(v), `${label}: message repeats a sent value`).toBe(false);
}

async function send(op: OperationDef, params: Record<string, string>, query: Record<string, string | string[]>, body: BodyCase, auth: AuthCase) {
  const path = fillPath(op.path, params);
  const headers: Record<string, string> = {};
  if ('header' in auth && auth.header !== null) headers.authorization = auth.header;
  const opts: Parameters<TestSandbox['req']>[2] = { query, headers };
  if ('key' in auth) opts.key = sb.keys.full!;
  if (op.method !== 'GET') {
    if (body.kind === 'json') opts.body = body.value;
    else if (body.kind === 'raw') {
      opts.rawBody = body.text;
      if (body.contentType) headers['content-type'] = body.contentType;
    }
  }
  return sb.req(op.method, path, opts);
}

describe('fuzz: every operation', () => {
  it.each(OPERATIONS.map((o) => [`${o.method} ${o.path}`, o] as const))('%s', async (label, op) => {
    const names = pathParams(op.path);
    const paramsArb = fc.record(Object.fromEntries(names.map((n) => [n, pathValue])));
    await fc.assert(
      fc.asyncProperty(paramsArb, queryArb, bodyArb, authArb, async (params, query, body, auth) => {
        const res = await send(op, params, query, body, auth);
        checkResponse(res, [params, query, body.kind === 'json' ? body.value : body.kind === 'raw' ? body.text : null], label);
      }),
      { numRuns: RUNS_PER_OPERATION },
    );
  });
});

describe('fuzz: cursors on every list', () => {
  const lists = OPERATIONS.filter((o) => o.kind === 'list');
  const cursorArb = fc.oneof(
    text(300),
    fc.tuple(fc.base64String({ maxLength: 80 }), fc.base64String({ maxLength: 30 })).map(([a, b]) => `${a.replace(/=/g, '')}.${b.replace(/=/g, '')}`),
    fc.jsonValue().map((v) => `${Buffer.from(JSON.stringify({ p: v })).toString('base64url')}.AAAAAAAAAAAAAAAAAAAAAA`),
  );
  it.each(lists.map((o) => [`${o.method} ${o.path}`, o] as const))('%s', async (label, op) => {
    const names = pathParams(op.path);
    await fc.assert(
      fc.asyncProperty(cursorArb, fc.constantFrom(...ADVERTISERS.map((a) => a.id)), async (cursor, adv) => {
        const params = Object.fromEntries(names.map((n) => [n, n === 'advertiserId' ? adv : 'x']));
        const res = await sb.req('GET', fillPath(op.path, params), { key: sb.keys.full, query: { cursor } });
        checkResponse(res, [cursor], label);
        if (cursor.length > 0 && res.status === 200) {
          throw new Error(`${label}: a made-up cursor was accepted`);
        }
      }),
      { numRuns: 6 },
    );
  });
});

describe('fuzz: schema-shaped requests (from /openapi.json) to every operation', () => {
  let doc: OpenApiDoc;
  let vocab: Vocabulary;
  beforeAll(async () => {
    doc = (await sb.req('GET', '/openapi.json')).body as OpenApiDoc;
    // Ids and slugs that exist, so generated requests reach rows and not only 404s.
    const found = new Set<string>(['2026-09-01', '2026-09-30', 'acc_unknown', ...VOCABULARY]);
    for (const op of OPERATIONS.filter((o) => o.kind === 'list')) {
      const names = pathParams(op.path);
      if (names.some((n) => n !== 'advertiserId')) continue;
      for (const a of names.length ? ADVERTISERS.slice(0, 2) : [null]) {
        const res = await sb.req('GET', fillPath(op.path, a ? { advertiserId: a.id } : {}), { key: sb.keys.full });
        for (const row of (res.body?.data ?? []).slice(0, 5)) {
          for (const k of ['id', 'slug', 'catalogSlug', 'campaignId']) if (typeof row[k] === 'string') found.add(row[k]);
        }
      }
    }
    vocab = { strings: [...found] };
  });

  it.each(OPERATIONS.map((o) => [`${o.method} ${o.path}`, o] as const))('%s', async (label, op) => {
    const documented = doc.paths[op.path]?.[op.method.toLowerCase()];
    expect(documented, `${label} is not in /openapi.json`).toBeDefined();
    const names = pathParams(op.path);
    const paramsArb = fc.record(Object.fromEntries(names.map((n) => [n, fc.constantFrom(...vocab.strings.filter((v) => v.length > 0))])));
    const schema = bodySchema(documented);
    const bodyArb = schema ? schemaArb(doc, schema, vocab).chain(perturb) : fc.constant(undefined);
    await fc.assert(
      fc.asyncProperty(paramsArb, docQueryArb(doc, documented, vocab), bodyArb, async (params, query, body) => {
        const res = await sb.req(op.method, fillPath(op.path, params), { key: sb.keys.full, query, ...(body !== undefined ? { body } : {}) });
        checkResponse(res, [params, query, body], label);
      }),
      { numRuns: RUNS_PER_OPERATION },
    );
  });
});

describe('fuzz: the checks themselves can fail', () => {
  const fake = (status: number, body: unknown): TestResponse => ({
    status,
    headers: new Headers({ 'content-type': 'application/json' }),
    body,
    text: JSON.stringify(body),
  });
  it('a 500, a body without error/message, or an issue repeating a sent value is caught', () => {
    expect(() => checkResponse(fake(500, { error: 'internal', message: 'x' }), [], 'self')).toThrow();
    expect(() => checkResponse(fake(400, { message: 'no code' }), [], 'self')).toThrow();
    const echo = { error: 'invalid_request', message: 'bad', issues: [{ in: 'query', path: '/limit', message: 'got SENT-abcdef' }] };
    expect(() => checkResponse(fake(400, echo), [{ limit: 'SENT-abcdef' }], 'self')).toThrow();
    expect(() => checkResponse(fake(400, { ...echo, issues: [{ in: 'query', path: 'limit', message: 'x' }] }), [], 'self')).toThrow();
    expect(() => checkResponse(fake(502, { error: 'provider_error', message: 'x', provider: 'provider_a' }), [], 'self')).not.toThrow();
  });

  it('the fuzzing reached the sandbox: both auth failures and schema failures were seen', () => {
    if (process.env.FUZZ_STATS) console.log(JSON.stringify([...seenStatuses].sort((a, b) => a[0] - b[0])));
    expect(seenStatuses.get(401) ?? 0).toBeGreaterThan(0);
    expect(seenStatuses.get(400) ?? 0).toBeGreaterThan(0);
    expect([...seenStatuses.keys()].some((s) => s >= 200 && s < 300)).toBe(true);
  });
});
