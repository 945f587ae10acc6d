// What the stand-in service answers (test/fuzz/stand-in.ts): samples of each
// operation's published success schema (its JSON Schema, as the sandbox
// serves it), drawn with fast-check's generator (`g`, from fc.gen(), so every
// answer is replayed from the run's seed), and the mutations that break them.
//
// A sample is valid by construction (a self-test parses thousands with the
// contract's zod schemas) and made to look like a service that remembers: a
// row of a list narrowed by `ids=` has one of those ids, an Insight's day lies
// in the range asked, a field named as one seen earlier in the run (a budget,
// a currency, an entity id, a file's size) often takes a value seen before.
// That is what brings a flow to its verdicts ("in sync", "in band", "already
// there") often enough for a broken answer to be caught making one.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { isNode, publishedSchema, type Node } from '../../src/contract/validator-build.js';
import { schemasOf } from '../../src/contract/operation-schemas.js';
import type { OperationId } from '../../src/contract/operations.js';
import { KEY_FORMS } from './key.js';

export type Gen = fc.GeneratorValue;

/** What a sample is drawn against: the request it answers and what the run has seen. */
export interface AnswerContext {
  g: Gen;
  /** Values seen in this run (answers and requests), by field name. */
  pool: Map<string, unknown[]>;
  query: Record<string, string>;
  params: Record<string, string>;
  body: unknown;
  /** The stand-in's origin (an upload URL points back to it). */
  origin: string;
  /** The run's day (YYYY-MM-DD): dates are drawn around it. */
  today: string;
}

/**
 * One builder per pair of bounds, each holding its fc.integer: fc.gen() memoizes the arbitrary a builder makes by a
 * linear scan of that builder's earlier arguments, deep-compared, for every draw (~3% of the fuzzer's time with
 * fc.integer and its {min, max} of each call). A builder called with no arguments is found at once. The same
 * arbitrary draws the same values from the run's generator: every seed replays the very same runs.
 */
const integerBuilders = new Map<string, () => fc.Arbitrary<number>>();
export function int(g: Gen, min: number, max: number): number {
  const key = `${min} ${max}`;
  let builder = integerBuilders.get(key);
  if (!builder) {
    const arbitrary = fc.integer({ min, max });
    builder = () => arbitrary;
    integerBuilders.set(key, builder);
  }
  return g(builder);
}
export const chance = (g: Gen, percent: number): boolean => int(g, 0, 99) < percent;
export const pick = <T>(g: Gen, list: readonly T[]): T => list[int(g, 0, list.length - 1)]!;

const DAY = 86_400_000;
const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`);
const dateAt = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Text a service may send in any free string: escapes, line breaks, the key in every form, markdown that acts. */
export const HOSTILE_TEXT: readonly string[] = [
  '\u001b[31mred\u001b[0m',
  '\u001b]0;title\u0007',
  '\u009b2J',
  'two\nlines',
  'carriage\rreturn',
  'tab\there',
  'nul\u0000byte',
  'bidi\u202eevil',
  '@everyone see this',
  'see https://evil.example/x?t=1',
  '$$\\sum_{i} x$$',
  '| a | b |',
  '<img src=x onerror=alert(1)>',
  '=HYPERLINK("http://evil.example")',
  // GitHub Actions workflow commands, whole and in halves that meet `: ` or `:` where adops joins text to them.
  '::error title=fuzz::forged annotation',
  '::warning',
  ':',
  '::add-mask::',
  'a ##[group]fold',
  ...KEY_FORMS,
];

/** The schema object at `v` ({} when there is none). */
export const nodeAt = (v: unknown): Node => (isNode(v) ? v : {});
/** The list at `v` ([] when there is none). */
export const listAt = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Every `$ref` inlined (the contract's schemas have no cycles). */
function inlined(root: Node): Node {
  const defs = nodeAt(root.$defs);
  const walk = (n: unknown): unknown => {
    if (Array.isArray(n)) return n.map(walk);
    if (!isNode(n)) return n;
    if (typeof n.$ref === 'string') {
      const { $ref, ...rest } = n;
      return walk({ ...nodeAt(defs[$ref.replace('#/$defs/', '')]), ...rest });
    }
    return Object.fromEntries(
      Object.entries(n)
        .filter(([k]) => k !== '$defs')
        .map(([k, v]) => [k, walk(v)]),
    );
  };
  return nodeAt(walk(root));
}

const schemaCache = new Map<OperationId, Node>();
/** The operation's success schema as the sandbox publishes it, `$ref`s inlined. */
export function responseSchema(id: OperationId): Node | undefined {
  if (!schemaCache.has(id)) {
    const response = schemasOf(id)?.response;
    if (!response) return undefined;
    schemaCache.set(id, inlined(publishedSchema(response, 'output')));
  }
  return schemaCache.get(id);
}

const ID_FIELDS = /^(id|slug|documentId|lineItemId|entityId|campaignId|adGroupId|creativeId|executionId|mutationId|catalogSlug|planSlug|assetId)$/;
const POOLED =
  /^(id|slug|documentId|lineItemId|entityId|campaignId|adGroupId|budget|currency|budgetType|budgetLevel|objective|filename|sizeBytes|sha256|revision|advertiserId|state|status)$/;

function remember(pool: Map<string, unknown[]>, name: string, value: unknown): void {
  if (value === null || value === undefined || typeof value === 'object') return;
  const list = pool.get(name) ?? [];
  if (!list.includes(value) && list.length < 16) list.push(value);
  pool.set(name, list);
}

/** Every scalar of `value` under its field name (an answer, or a request's query and body). */
export function rememberAll(pool: Map<string, unknown[]>, value: unknown, name = ''): void {
  if (Array.isArray(value)) for (const v of value) rememberAll(pool, v, name);
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) rememberAll(pool, v, k);
  else if (name && POOLED.test(name)) remember(pool, name, value);
}

function pooled(ctx: AnswerContext, name: string, fits: (v: unknown) => boolean): unknown {
  const list = (ctx.pool.get(name) ?? []).filter(fits);
  return list.length && chance(ctx.g, 55) ? pick(ctx.g, list) : undefined;
}

// Built once, each drawn through a builder of its own with no arguments: fc.gen() memoizes a builder's arbitrary by
// deep-comparing its arguments, and two RegExps compare equal there (no own enumerable properties), so
// `g(idTail)` after `g(uploadToken)` in one run drew 12
// characters again: every id of a run took the pattern drawn first.
const ID_TAIL = fc.stringMatching(/^[a-z0-9]{1,8}$/);
const UPLOAD_TOKEN = fc.stringMatching(/^[a-z0-9]{12}$/);
const idTail = () => ID_TAIL;
const uploadToken = () => UPLOAD_TOKEN;

/** Strings of a pattern (one arbitrary per pattern and bounds: building one is the costly part). */
const patterns = new Map<string, fc.Arbitrary<string>>();
function matching(pattern: string, min: number, max: number): fc.Arbitrary<string> {
  const key = `${pattern} ${min} ${max}`;
  let arb = patterns.get(key);
  if (!arb) patterns.set(key, (arb = fc.stringMatching(new RegExp(pattern)).filter((x) => x.length >= min && x.length <= max)));
  return arb;
}

function stringOf(ctx: AnswerContext, s: Node, name: string): string {
  const { g } = ctx;
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : 10_000;
  const fits = (v: unknown): v is string =>
    typeof v === 'string' && v.length >= min && v.length <= max && (typeof s.pattern !== 'string' || new RegExp(s.pattern).test(v));
  if (s.format === 'date' || s.pattern === '^\\d{4}-\\d{2}-\\d{2}$') {
    const p = pooled(ctx, name, fits);
    return typeof p === 'string' ? p : dateAt(dayOf(ctx.today) + int(g, -40, 40) * DAY);
  }
  if (name === 'uploadUrl') return `${ctx.origin}/upload/${g(uploadToken)}`;
  if (name === 'sha256') {
    const p = pooled(ctx, name, fits);
    return typeof p === 'string'
      ? p
      : createHash('sha256')
          .update(String(g(fc.integer)))
          .digest('hex');
  }
  if (s.format === 'uri') return pick(g, ['https://example.test/a', 'https://cdn.example.test/logo.png']);
  if (typeof s.pattern === 'string') {
    const p = pooled(ctx, name, fits);
    if (typeof p === 'string') return p;
    return g(() => matching(s.pattern === '^acc_' ? '^acc_[a-z0-9_]{1,12}$' : String(s.pattern), min, max));
  }
  if (name === 'currency') return pick(g, ['USD', 'EUR', 'JPY']);
  const p = POOLED.test(name) ? pooled(ctx, name, fits) : undefined;
  if (typeof p === 'string') return p;
  if (ID_FIELDS.test(name)) return `${name.slice(0, 3)}_${g(idTail)}`;
  const words = chance(g, 12) ? HOSTILE_TEXT : ['alpha', 'Spring sale', 'x', 'Ünïcödé ✓', 'a,b;c', '"quoted"'];
  const text = chance(g, 1) ? 'z'.repeat(200_000) : pick(g, words);
  return text.length >= min && text.length <= max ? text : 'y'.repeat(Math.max(min, 1));
}

function numberOf(ctx: AnswerContext, s: Node, name: string, integer: boolean): number {
  const { g } = ctx;
  const lo = typeof s.minimum === 'number' ? Math.max(s.minimum, -1e6) : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 0;
  const hi = typeof s.maximum === 'number' ? Math.min(s.maximum, 1e7) : 100_000;
  const fits = (v: unknown) => typeof v === 'number' && v >= lo && v <= hi && (!integer || Number.isInteger(v));
  const p = pooled(ctx, name, fits);
  if (typeof p === 'number') return p;
  if (/At$|Time$/.test(name)) return dayOf(ctx.today) + int(g, -30, 30) * DAY;
  const n = int(g, Math.ceil(lo), Math.max(Math.ceil(lo), Math.floor(Math.min(hi, 5000))));
  return integer || chance(g, 60) ? n : Math.min(hi, n + int(g, 1, 99) / 100);
}

const typesOf = (s: Node): string[] => (typeof s.type === 'string' ? [s.type] : listAt(s.type).filter((t) => typeof t === 'string'));

/** A value `s` accepts, for the field `name`. */
export function sample(ctx: AnswerContext, s: Node, name = '', depth = 0): unknown {
  const { g } = ctx;
  const words = listAt(s.enum);
  if (words.length) {
    const p = pooled(ctx, name, (v) => words.includes(v));
    return p !== undefined ? p : pick(g, words);
  }
  if ('const' in s) return s.const;
  const alts = listAt(s.anyOf ?? s.oneOf).map(nodeAt);
  if (alts.length) {
    const nonNull = alts.filter((a) => a.type !== 'null');
    const branch = nonNull.length && (nonNull.length === alts.length || chance(g, 75)) ? pick(g, nonNull) : { type: 'null' };
    const { anyOf: _a, oneOf: _o, ...rest } = s;
    return sample(ctx, { ...rest, ...branch }, name, depth + 1);
  }
  const types = typesOf(s);
  const type = types.includes('null') && types.length > 1 && chance(g, 25) ? 'null' : (types.find((t) => t !== 'null') ?? types[0]);
  switch (type) {
    case 'null':
      return null;
    case 'string':
      return stringOf(ctx, s, name);
    case 'integer':
      return numberOf(ctx, s, name, true);
    case 'number':
      return numberOf(ctx, s, name, false);
    case 'boolean':
      return g(fc.boolean);
    case 'array': {
      const items = nodeAt(s.items);
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      const n = int(g, min, Math.max(min, depth > 2 ? 1 : name === 'data' ? 4 : 2));
      return Array.from({ length: n }, () => sample(ctx, items, name === 'data' ? '' : name.replace(/s$/, ''), depth + 1));
    }
    case 'object': {
      const required = new Set(listAt(s.required));
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(nodeAt(s.properties))) if (required.has(k) || chance(g, 70)) out[k] = sample(ctx, nodeAt(v), k, depth + 1);
      if (!s.properties && s.additionalProperties !== false && chance(g, 50)) out.extra = pick(g, ['x', 1, null]);
      return out;
    }
    default:
      return pick(g, ['any', 1, null, true]);
  }
}

/** Make a sample answer the request it came for: rows of the ids, advertiser, status and dates asked; the path's own id. */
export function fitRequest(ctx: AnswerContext, op: OperationId, value: unknown): unknown {
  const { query, params, g } = ctx;
  const fit = (row: Record<string, unknown>) => {
    const ids = query.ids?.split(',').filter(Boolean);
    const idField = op === 'listInsights' ? 'entityId' : 'id';
    if (ids?.length && idField in row) row[idField] = pick(g, ids);
    const advertiserId = params.advertiserId ?? query.advertiserId;
    if (advertiserId && 'advertiserId' in row) row.advertiserId = advertiserId;
    for (const f of ['status', 'state', 'provider', 'level', 'campaignId', 'adGroupId'] as const) if (query[f] && f in row) row[f] = query[f];
    if (query.since && query.until && 'dateStart' in row) {
      const span = Math.max(0, (dayOf(query.until) - dayOf(query.since)) / DAY);
      const day = dateAt(dayOf(query.since) + int(g, 0, Math.min(span, 400)) * DAY);
      row.dateStart = day;
      row.dateStop = day;
    }
    return row;
  };
  if (!isNode(value)) return value;
  const body = value;
  if (Array.isArray(body.data)) body.data = listAt(body.data).map((r) => (isNode(r) ? fit(r) : r));
  else {
    for (const [p, v] of Object.entries(params)) if (p in body && p !== 'advertiserId') body[p] = v;
    if (params.id && 'id' in body) body.id = params.id;
  }
  return body;
}
