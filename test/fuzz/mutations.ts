// How the stand-in breaks a valid answer: one mutation per broken answer,
// chosen by the run's generator. A field is removed, retyped, set outside its
// enum, nulled, given a date that is not one or a number no budget is; a page
// repeats a row, carries one that was not asked for, repeats a cursor, or
// pages empty for ever; a 2xx comes with no body, or not JSON. The mutation
// says where it struck, so the judge (judge.ts) can tell an answer broken where
// a verdict reads it from one broken where nothing reads it.
import { isNode } from '../../src/contract/validator-build.js';
import { chance, int, pick, type Gen } from './answers.js';

export type MutationKind =
  | 'remove'
  | 'wrongType'
  | 'null'
  | 'outsideEnum'
  | 'badDate'
  | 'nanText'
  | 'hugeNumber'
  | 'negative'
  | 'duplicateRow'
  | 'rowNotAsked'
  | 'repeatCursor'
  | 'emptyForever'
  | 'noBody'
  | 'notJson'
  | 'notAnObject';

export interface Mutation {
  kind: MutationKind;
  /** Where it struck, as a read path of answer-views.ts: `data[].status`, `lineItems[].executions`, '' for the whole answer. */
  at: string;
  /** The id of the row (or Line Item) it struck in, when that row has one: a check's output must speak of it. */
  subject?: string;
}

const ID_NAMES = ['id', 'entityId', 'lineItemId', 'slug'] as const;

/** The id of the innermost row along `at` that carries one (the row a field mutation struck in). */
function subjectOf(root: unknown, at: readonly Segment[]): string | undefined {
  let node: unknown = root;
  let subject: string | undefined;
  for (const s of at.slice(0, -1)) {
    node = isNode(node) || Array.isArray(node) ? Reflect.get(node, s) : undefined;
    const here = node;
    const id = isNode(here) ? ID_NAMES.map((k) => here[k]).find((v) => typeof v === 'string') : undefined;
    if (typeof id === 'string') subject = id;
  }
  return subject;
}

/** Kinds that break what the answer says about the request, whatever field a verdict reads. */
export const SEMANTIC: ReadonlySet<MutationKind> = new Set(['duplicateRow', 'rowNotAsked', 'repeatCursor', 'emptyForever', 'noBody', 'notJson', 'notAnObject']);

type Segment = string | number;

/** Every place in `value` a field mutation can strike: [path segments, the value there]. */
function places(value: unknown, at: Segment[] = []): Array<[Segment[], unknown]> {
  const out: Array<[Segment[], unknown]> = [];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...places(v, [...at, i])));
  else if (isNode(value))
    for (const [k, v] of Object.entries(value)) {
      out.push([[...at, k], v]);
      out.push(...places(v, [...at, k]));
    }
  return out;
}

/** `['data', 3, 'status']` → `data[].status`. */
export const readPath = (at: readonly Segment[]): string =>
  at
    .map((s) => (typeof s === 'number' ? '[]' : `.${s}`))
    .join('')
    .replace(/^\./, '')
    .replace(/\.\[\]/g, '[]');

/** The object or list holding the place `at` names, and its key there. */
function holderOf(root: unknown, at: readonly Segment[]): { holder: object; key: Segment } | undefined {
  let node: unknown = root;
  for (const s of at.slice(0, -1)) node = isNode(node) || Array.isArray(node) ? Reflect.get(node, s) : undefined;
  return isNode(node) || Array.isArray(node) ? { holder: node, key: at[at.length - 1]! } : undefined;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Does a mutation at `at` strike what a read path reads (the field itself, a parent of it, or inside it)? */
export function strikes(at: string, read: string): boolean {
  return at === read || read.startsWith(`${at}.`) || read.startsWith(`${at}[]`) || at.startsWith(`${read}.`) || at.startsWith(`${read}[]`);
}

/**
 * One field mutation of `value` (in place); undefined when it has no field to strike. Aimed: most of the
 * time at a field a verdict reads (`aims`, read paths of the command's views), where a slip does harm.
 */
function mutateField(g: Gen, value: unknown, aims: readonly string[]): Mutation | undefined {
  const all = places(value);
  // Each field a verdict reads is as likely as any other, however many rows carry it.
  const aimed = new Map<string, Array<[Segment[], unknown]>>();
  for (const p of all) {
    const path = readPath(p[0]);
    if (aims.some((read) => strikes(path, read))) aimed.set(path, [...(aimed.get(path) ?? []), p]);
  }
  const from = aimed.size && chance(g, 75) ? pick(g, [...aimed.values()]) : all;
  if (from.length === 0) return undefined;
  const [at, current] = pick(g, from);
  const subject = subjectOf(value, at);
  const kinds: MutationKind[] = ['remove', 'wrongType', 'null'];
  if (typeof current === 'string') kinds.push('outsideEnum', ...(DATE.test(current) ? (['badDate', 'badDate'] as const) : []));
  if (typeof current === 'number') kinds.push('nanText', 'hugeNumber', 'negative');
  const kind = pick(g, kinds);
  const place = holderOf(value, at);
  if (!place) return undefined;
  const { holder, key } = place;
  const put = (v: unknown) => Reflect.set(holder, key, v);
  if (kind === 'remove') {
    if (Array.isArray(holder)) holder.splice(Number(key), 1);
    else Reflect.deleteProperty(holder, key);
  } else if (kind === 'wrongType')
    put(
      typeof current === 'string'
        ? 7
        : typeof current === 'number'
          ? String(current)
          : Array.isArray(current)
            ? { 0: current[0] }
            : current === null
              ? { wrong: true }
              : 'x',
    );
  else if (kind === 'null') put(null);
  else if (kind === 'outsideEnum') put(pick(g, ['NOT_A_WORD', 'active', 'enabled', '']));
  else if (kind === 'badDate') put(pick(g, ['2026-11-1', '2026-02-30', '11/01/2026', '2026-11-01T00:00:00Z']));
  else if (kind === 'nanText') put(pick(g, ['NaN', 'Infinity', '1e999', '12.5', '']));
  else if (kind === 'hugeNumber') put(pick(g, [1e308, -1e308, Number.MAX_SAFE_INTEGER * 8, 1e21]));
  else put(-Math.abs(typeof current === 'number' ? current : 1) - 1);
  return { kind, at: readPath(at), ...(subject !== undefined ? { subject } : {}) };
}

/** The state a list's mutations keep between pages of one walk. */
export interface PageState {
  /** Cursors already given for this operation (a repeat is one of them). */
  given: string[];
  /** The operation pages empty for ever from now on. */
  emptyForever: boolean;
}

/** One mutation of a list answer's page (in place), list-level or of a field. */
export function mutatePage(
  g: Gen,
  page: { data: unknown[]; nextCursor?: string },
  state: PageState,
  asked: { ids?: string[]; since?: string; until?: string },
  aims: readonly string[] = [],
): Mutation {
  const kinds: Array<MutationKind | 'field'> = ['duplicateRow', 'rowNotAsked', 'emptyForever', 'emptyForever', 'field', 'field', 'field'];
  if (state.given.length) kinds.push('repeatCursor');
  const kind = pick(g, kinds);
  const rows = page.data;
  if (kind === 'duplicateRow' && rows.length) {
    rows.push(structuredClone(rows[int(g, 0, rows.length - 1)]));
    return { kind, at: 'data[]' };
  }
  const first = rows[0];
  if (kind === 'rowNotAsked' && isNode(first)) {
    const row = structuredClone(first);
    if (asked.since && 'dateStart' in row) row.dateStart = row.dateStop = chance(g, 50) ? '2000-01-01' : '2099-12-31';
    else if ('entityId' in row && asked.ids) row.entityId = 'not-asked-9';
    else if ('id' in row && asked.ids) row.id = 'not-asked-9';
    else if ('advertiserId' in row) row.advertiserId = 'acc_not_asked';
    rows.push(row);
    return { kind, at: 'data[]' };
  }
  if (kind === 'repeatCursor') {
    page.nextCursor = pick(g, state.given);
    return { kind, at: 'nextCursor' };
  }
  if (kind === 'emptyForever') {
    state.emptyForever = true;
    page.data = [];
    page.nextCursor = `empty-${state.given.length}`;
    return { kind, at: 'data' };
  }
  return mutateField(g, page, aims) ?? { kind: 'notAnObject', at: '' };
}

/** One mutation of a single object answer (in place). */
export function mutateObject(g: Gen, body: unknown, aims: readonly string[] = []): Mutation {
  return mutateField(g, body, aims) ?? { kind: 'notAnObject', at: '' };
}

/** A 2xx whose body is not the contract's at all: empty, not JSON, or not an object. */
export function wholeBodyMutation(g: Gen): { mutation: Mutation; text: string } {
  const kind = pick(g, ['noBody', 'notJson', 'notAnObject'] as const);
  const text = kind === 'noBody' ? '' : kind === 'notJson' ? pick(g, ['<html>ok</html>', '{"data": [', 'OK']) : pick(g, ['[]', 'null', '"done"', '42']);
  return { mutation: { kind, at: '' }, text };
}
