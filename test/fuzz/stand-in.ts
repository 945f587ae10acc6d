// The stand-in service: a loopback HTTP server that answers every operation
// of the contract (matched by method and path, src/contract/operations.ts) as
// the run's scenario says: a valid sample of the operation's success schema,
// the same broken by one mutation, a failure (a documented code, or a hostile
// body: 200 KB, escapes, the key echoed, not JSON), a 2xx with no body, pages
// that never end. A second server is the storage an upload URL points to (the
// key must never reach it). Every request and answer is recorded for the judge.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { errorInfo, type KnownErrorCode } from '../../src/contract/errors.js';
import { matchOperation, pathParams, type OperationId } from '../../src/contract/operations.js';
import { chance, fitRequest, HOSTILE_TEXT, int, listAt, pick, rememberAll, responseSchema, sample, type AnswerContext, type Gen } from './answers.js';
import { isNode } from '../../src/contract/validator-build.js';
import { FUZZ_KEY, KEY_FORMS } from './key.js';
import { mutateObject, mutatePage, wholeBodyMutation, type Mutation, type PageState } from './mutations.js';

/** What one answer was: the operation, its status, and the mutation that broke it (if one did). */
export interface Served {
  op: OperationId | undefined;
  method: string;
  path: string;
  status: number;
  mutation?: Mutation;
  /** The body as sent (for the judge's zod check), undefined when not JSON. */
  body?: unknown;
  /** A later answer to the same request (a retry, a resend, the next poll) took its place: no verdict rests on it. */
  superseded?: boolean;
}

export interface SeenRequest {
  method: string;
  path: string;
  origin: 'api' | 'storage';
  authorization: string | undefined;
}

/** How hostile a run's service is, in percent per answer. */
export interface Hostility {
  broken: number;
  failure: number;
  /** 2xx with no body, not JSON, not an object. */
  garbled: number;
}

/** Requests one run may send before the judge calls it a walk without progress (nothing a fixture needs comes near it). */
export const REQUEST_BUDGET = 400;

export class Scenario {
  readonly served: Served[] = [];
  readonly requests: SeenRequest[] = [];
  readonly pool = new Map<string, unknown[]>();
  private readonly pages = new Map<string, PageState & { n: number }>();
  overBudget = false;

  constructor(
    readonly g: Gen,
    readonly hostility: Hostility,
    readonly today: string,
    private readonly storageOrigin: string,
    /** Told when the budget is spent (the harness aborts the run). */
    private readonly onOverBudget: () => void,
    seed: {
      files: ReadonlyArray<{ filename: string; sizeBytes: number; sha256: string }>;
      /** What the command's verdicts read, by operation (read paths of its views): where broken answers aim. */
      aims?: ReadonlyMap<OperationId, readonly string[]>;
    },
  ) {
    for (const f of seed.files) rememberAll(this.pool, f);
    this.aims = seed.aims ?? new Map();
  }
  private readonly aims: ReadonlyMap<OperationId, readonly string[]>;
  private readonly world = new EntityMemory();

  /** One API answer: status, headers, body text. */
  answer(method: string, url: URL, body: unknown): { status: number; headers: Record<string, string>; text: string } {
    const op = matchOperation(method, url.pathname);
    if (this.requests.length > REQUEST_BUDGET && !this.overBudget) {
      this.overBudget = true;
      this.onOverBudget();
    }
    if (!op) return this.record(undefined, method, url, 404, { error: 'not_found', message: 'No operation answers this path.' });
    const query = Object.fromEntries(url.searchParams);
    const params = paramsOf(op.path, url.pathname);
    rememberAll(this.pool, query);
    rememberAll(this.pool, body);
    const { g, hostility } = this;
    // A walk the service pages empty for ever stays so: no failure ends it for the client.
    const walk = op.kind === 'list' ? this.pageState(pageKey(op.id, params, url)) : undefined;
    if (walk?.emptyForever) {
      const page = { data: [], nextCursor: `empty-${++walk.n}` };
      walk.given.push(page.nextCursor);
      return this.record(op.id, method, url, Number(Object.keys(op.responses)[0] ?? 200), page, { kind: 'emptyForever', at: 'data' });
    }
    const roll = int(g, 0, 99);
    if (roll < hostility.failure) return this.failure(op.id, op.errors, method, url);
    const ok = Number(Object.keys(op.responses)[0] ?? 200);
    if (roll < hostility.failure + hostility.garbled) {
      const { mutation, text } = wholeBodyMutation(g);
      this.push({ op: op.id, method, path: url.pathname, status: ok, mutation }, url);
      return { status: ok, headers: { 'content-type': 'application/json' }, text };
    }
    const ctx: AnswerContext = { g, pool: this.pool, query, params, body, origin: this.storageOrigin, today: this.today };
    const schema = responseSchema(op.id);
    const value = this.world.fit(g, op.id, fitRequest(ctx, op.id, schema ? sample(ctx, schema) : {}), this.today);
    const broken = int(g, 0, 99) < hostility.broken;
    let mutation: Mutation | undefined;
    if (op.kind === 'list' && value !== null && typeof value === 'object' && 'data' in value && Array.isArray(value.data)) {
      const page: { data: unknown[]; nextCursor?: string } = { data: value.data };
      const state = this.pageState(pageKey(op.id, params, url));
      if (state.n < 3 && chance(g, 30)) page.nextCursor = `c-${op.id}-${++state.n}`;
      if (broken) mutation = mutatePage(g, page, state, { ...(query.ids ? { ids: query.ids.split(',') } : {}), ...query }, this.aims.get(op.id));
      if (page.nextCursor) state.given.push(page.nextCursor);
      rememberAll(this.pool, page);
      return this.record(op.id, method, url, ok, page, mutation);
    }
    if (broken) mutation = mutateObject(g, value, this.aims.get(op.id));
    rememberAll(this.pool, value);
    return this.record(op.id, method, url, ok, value, mutation);
  }

  private pageState(key: string): PageState & { n: number } {
    let s = this.pages.get(key);
    if (!s) this.pages.set(key, (s = { given: [], emptyForever: false, n: 0 }));
    return s;
  }

  /** Record an answer; an earlier answer to the same request (method and URL) is superseded by it. */
  private push(s: Served, url: URL): void {
    const key = `${s.method} ${url.pathname}${url.search}`;
    const before = this.lastBy.get(key);
    if (before) before.superseded = true;
    this.lastBy.set(key, s);
    this.served.push(s);
  }
  private readonly lastBy = new Map<string, Served>();

  private record(op: OperationId | undefined, method: string, url: URL, status: number, body: unknown, mutation?: Mutation) {
    this.push({ op, method, path: url.pathname, status, body, ...(mutation ? { mutation } : {}) }, url);
    return { status, headers: { 'content-type': 'application/json' }, text: JSON.stringify(body) };
  }

  /** A failure: a code the operation documents (or a common one, a gateway's bare status), with a body that may be hostile. */
  private failure(op: OperationId, errors: readonly KnownErrorCode[], method: string, url: URL) {
    const { g } = this;
    const codes: string[] = [...errors, 'invalid_request', 'unauthorized', 'forbidden', 'not_found', 'provider_error', 'http_500', 'http_503', 'http_429'];
    const code = pick(g, codes);
    const known = errorInfo(code);
    const status = known?.status ?? Number(code.replace('http_', ''));
    const message = chance(g, 30) ? pick(g, [...HOSTILE_TEXT, 'm'.repeat(200_000), `bad key ${pick(g, KEY_FORMS)}`]) : 'It failed.';
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (status === 429 && chance(g, 50)) headers['retry-after'] = pick(g, ['0', '1', '-5', 'soon', '86400']);
    const shape = int(g, 0, 9);
    const body =
      shape < 6 ? { error: known ? code : pick(g, ['rate_limited', 'internal']), message, ...addedFields(code, g) } : shape < 8 ? { message } : undefined;
    this.push({ op, method, path: url.pathname, status, body }, url);
    return {
      status,
      headers: body === undefined ? { 'content-type': 'text/html' } : headers,
      text: body === undefined ? pick(g, ['', '<html>Bad Gateway</html>', message]) : JSON.stringify(body),
    };
  }
}

/**
 * A service that remembers its world: the entities a plan's Line Items spawned (its executions) answer, when
 * read live or in Insights, most of the time as the Line Item says (its budget, type and currency, ACTIVE
 * inside its flight, spend at its pace). Without it a check's "in sync" or "on pace" is too rare a verdict
 * for a broken answer to be caught making it.
 */
class EntityMemory {
  private readonly entities = new Map<string, { li: Record<string, unknown>; currency: unknown; type: unknown }>();

  fit(g: Gen, op: OperationId, value: unknown, today: string): unknown {
    if (!isNode(value)) return value;
    if (op === 'getCampaignPlan') {
      for (const li of listAt(value.lineItems).filter(isNode))
        for (const e of listAt(li.executions).filter(isNode))
          if (typeof e.entityId === 'string') this.entities.set(e.entityId, { li, currency: value.currency, type: e.entityType });
      return value;
    }
    for (const row of listAt(value.data).filter(isNode)) {
      const known = this.entities.get(String(row.id ?? row.entityId));
      if (!known || !chance(g, 80)) continue;
      const { li, currency, type } = known;
      const put = (field: string, v: unknown) => {
        if (field in row) row[field] = v;
      };
      put('currency', currency);
      if (type === 'campaign' || type === 'ad_group') {
        put('budgetLevel', type);
        put('budget', li.budget);
        put('budgetType', li.budgetType);
      }
      if (type === 'campaign') put('objective', li.objective);
      const start = typeof li.startDate === 'string' ? li.startDate : undefined;
      const end = typeof li.endDate === 'string' ? li.endDate : undefined;
      put('status', (start === undefined || start <= today) && (end === undefined || today <= end) ? 'ACTIVE' : 'PAUSED');
      // On pace: a daily budget a day, a lifetime budget spread over the flight.
      const days = start && end ? Math.max(1, (Date.parse(end) - Date.parse(start)) / 86_400_000 + 1) : 1;
      if (typeof li.budget === 'number') put('spend', li.budgetType === 'daily' ? li.budget : li.budget / days);
    }
    return value;
  }
}

/** The fields a code's failure body adds (spec: Errors, Shape), sometimes of the wrong type. */
function addedFields(code: string, g: Gen): Record<string, unknown> {
  const wrong = chance(g, 20);
  switch (code) {
    case 'revision_mismatch':
      return { currentRevision: wrong ? 'three' : int(g, 1, 9) };
    case 'slug_conflict':
      return { slug: wrong ? 5 : 'taken' };
    case 'provider_error':
      return {
        provider: 'provider_a',
        platformError: wrong
          ? 'x'
          : { code: 17, error_subcode: 2446079, type: 'OAuthException', error_user_title: pick(g, HOSTILE_TEXT), error_user_msg: 'slow down' },
      };
    case 'live_read_unsupported':
    case 'provider_not_connected':
      return { provider: wrong ? null : 'provider_b' };
    case 'organization_unentitled':
      return { paywallUrl: wrong ? 'javascript:alert(1)' : 'https://pay.example.test/' };
    case 'invalid_request':
      return { issues: wrong ? 'none' : [{ in: 'query', path: '/limit', message: pick(g, HOSTILE_TEXT) }] };
    default:
      return {};
  }
}

/** One walk of a list: the operation, its path and the ids it narrows to (its cursor aside). */
const pageKey = (op: OperationId, params: Record<string, string>, url: URL) => `${op} ${JSON.stringify(params)} ${url.searchParams.get('ids') ?? ''}`;

function paramsOf(template: string, pathname: string): Record<string, string> {
  const names = pathParams(template);
  const t = template.split('/');
  const p = pathname.split('/');
  const out: Record<string, string> = {};
  t.forEach((seg, i) => {
    if (seg.startsWith('{') && names.includes(seg.slice(1, -1))) out[seg.slice(1, -1)] = decodeURIComponent(p[i] ?? '');
  });
  return out;
}

/** `http://127.0.0.1:PORT` of a server listening on a TCP port. */
function originOf(server: Server): string {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a TCP port');
  return `http://127.0.0.1:${address.port}`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(String(c)));
  return Buffer.concat(chunks).toString();
}

/** The API server and the storage server, sharing whichever scenario the harness sets. */
export class StandIn {
  scenario: Scenario | undefined;
  private api!: Server;
  private storage!: Server;
  apiOrigin = '';
  storageOrigin = '';

  async start(): Promise<void> {
    this.api = createServer((req, res) => void this.serve('api', req, res));
    this.storage = createServer((req, res) => void this.serve('storage', req, res));
    for (const s of [this.api, this.storage]) {
      s.keepAliveTimeout = 5000;
      s.listen(0, '127.0.0.1');
      await once(s, 'listening');
    }
    this.apiOrigin = originOf(this.api);
    this.storageOrigin = originOf(this.storage);
  }

  async stop(): Promise<void> {
    for (const s of [this.api, this.storage]) {
      s.closeAllConnections();
      s.close();
    }
  }

  private async serve(origin: 'api' | 'storage', req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const sc = this.scenario;
    const url = new URL(req.url ?? '/', origin === 'api' ? this.apiOrigin : this.storageOrigin);
    if (!sc) {
      res.writeHead(503).end();
      return;
    }
    sc.requests.push({ method: req.method ?? 'GET', path: url.pathname, origin, authorization: req.headers.authorization });
    let answer: { status: number; headers: Record<string, string>; text: string };
    if (origin === 'storage') {
      const { g } = sc;
      const status = chance(g, 85) ? 200 : pick(g, [403, 404, 409, 500, 503]);
      answer = { status, headers: { 'content-type': 'text/plain' }, text: status === 200 ? '' : pick(g, HOSTILE_TEXT) };
    } else {
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      answer = sc.answer(req.method ?? 'GET', url, body);
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.text);
  }
}

export { FUZZ_KEY };
