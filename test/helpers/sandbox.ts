// Start a real sandbox on a loopback port (port 0, ':memory:' store) and talk
// to it over HTTP. Worlds are built in code so each test states the data it needs:
//
//   const sb = await startTestSandbox({ world: withAdvertiser(minimalWorld(), { id: 'acc_x', provider: 'provider_a' }) });
//   const res = await sb.req('GET', '/observe/campaigns', { key: sb.keys.full, query: { limit: 5 } });
//   expect(res.status).toBe(200);
//   await sb.close();
import { demoWorldImage } from './cli.js';
import { perFile } from './per-file.js';
import { SEEN_RESPONSES } from './seen-responses.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox, StartOptions } from '../../src/sandbox/index.js';
import type { Clock, SandboxServices } from '../../src/sandbox/http/context.js';
import type { WorldInput } from '../../src/sandbox/fixtures/schema.js';
import type { MutationDelays } from '../../src/sandbox/models/lifecycle.js';

type AdvertiserInput = WorldInput['advertisers'] extends Array<infer A> | undefined ? A : never;
type KeyInput = NonNullable<WorldInput['apiKeys']>[number];
type MemberInput = NonNullable<WorldInput['members']>[number];

export interface ReqOptions {
  /** API key, sent as "Authorization: Bearer <key>". */
  key?: string;
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  /** JSON-encoded, with Content-Type: application/json (unless headers say otherwise). */
  body?: unknown;
  /** Sent as is; set a Content-Type in headers yourself. */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON, else the text. */
  body: any;
  text: string;
}

/** The world's `full` key (every world built from minimalWorld has it); other labels through TestSandbox.key(). */
export interface TestKeys {
  readonly full: string;
}

export interface TestSandbox {
  url: string;
  keys: TestKeys;
  /** The key labelled `label`; throws when the world has none (a mistyped label must not send a request without a key). */
  key(label: string): string;
  services: SandboxServices;
  sandbox: RunningSandbox;
  req(method: string, path: string, opts?: ReqOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

/**
 * `world: DEMO_WORLD`: the demo world (its advertisers, keys and plan) as `adops sandbox serve` starts it, from
 * the prebuilt image (dist/bundle/demo-world.db): ~0.15 s of CPU a start against ~0.45 s for generating
 * demoWorldInput() and parsing it (~0.9 s the first time in a worker), and no 60 s beforeAll timeouts at load.
 */
export const DEMO_WORLD = 'demo';

export interface TestSandboxOptions {
  world?: WorldInput | typeof DEMO_WORLD;
  clock?: Clock;
  consoleOrigin?: string;
  /** Probe routes outside the OpenAPI documents (platform tests). */
  extraRoutes?: StartOptions['extraRoutes'];
  /** Unexpected errors (500) are reported here instead of stderr. */
  logError?: StartOptions['logError'];
  /** Serve the service as it was on this day (`sandbox serve --as-of`). */
  asOf?: string;
  /** How long a mutation stays pending, then running (default: QUICK_MUTATIONS on the real clock, the table's with `clock`). */
  mutationDelaysMs?: MutationDelays;
}

/**
 * A test's sandbox on the real clock moves a change on in 20 + 30 ms instead of the table's 200 + 300
 * (models/lifecycle.ts): a test that waits for many changes waits for none of those times (#37 session 9:
 * mutations-undo alone waited 8 x 0.5 s). A test about the times passes the table's, or its own clock.
 */
export const QUICK_MUTATIONS: MutationDelays = { startMs: 20, applyMs: 30 };

export async function startTestSandbox(opts: TestSandboxOptions = {}): Promise<TestSandbox> {
  const sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    data: ':memory:',
    ...(opts.world === DEMO_WORLD ? { snapshot: demoWorldImage() } : { world: opts.world ?? minimalWorld() }),
    quiet: true,
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.mutationDelaysMs || !opts.clock ? { mutationDelaysMs: opts.mutationDelaysMs ?? QUICK_MUTATIONS } : {}),
    ...(opts.consoleOrigin ? { consoleOrigin: opts.consoleOrigin } : {}),
    ...(opts.extraRoutes ? { extraRoutes: opts.extraRoutes } : {}),
    ...(opts.logError ? { logError: opts.logError } : {}),
    ...(opts.asOf ? { asOf: opts.asOf } : {}),
  });
  const byLabel = new Map(sandbox.keys.map((k) => [k.label, k.key]));
  const key = (label: string): string => {
    const found = byLabel.get(label);
    if (found === undefined) throw new Error(`the test world has no key labelled "${label}" (it has: ${[...byLabel.keys()].join(', ')})`);
    return found;
  };
  return {
    url: sandbox.url,
    keys: {
      get full() {
        return key('full');
      },
    },
    key,
    services: sandbox.services,
    sandbox,
    req: (method, path, o) => request(sandbox.url, method, path, o),
    close: () => sandbox.close(),
  };
}

/**
 * One sandbox for the whole file: started in beforeAll, closed in afterAll.
 * The handle is usable at once but reaches the sandbox only inside tests and
 * hooks (`const sb = useTestSandbox({ world }); ... await sb.req(...)`).
 */
export function useTestSandbox(opts: TestSandboxOptions = {}): TestSandbox {
  const running = perFile(
    'useTestSandbox: the sandbox',
    () => startTestSandbox(opts),
    (sb) => sb.close(),
  );
  return {
    get url() {
      return running().url;
    },
    get keys() {
      return running().keys;
    },
    get services() {
      return running().services;
    },
    get sandbox() {
      return running().sandbox;
    },
    key: (label) => running().key(label),
    req: (method, path, o) => running().req(method, path, o),
    close: () => running().close(),
  };
}

export async function request(base: string, method: string, path: string, o: ReqOptions = {}): Promise<TestResponse> {
  const answer = await send(base, method, path, o);
  // Judged after the test file against the published documents (seen-responses.ts, check-responses.ts).
  SEEN_RESPONSES.push({ method, path, res: answer });
  return answer;
}

async function send(base: string, method: string, path: string, o: ReqOptions): Promise<TestResponse> {
  const url = new URL(base + path);
  for (const [k, v] of Object.entries(o.query ?? {})) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, item);
    else url.searchParams.set(k, String(v));
  }
  const headers: Record<string, string> = {};
  if (o.key !== undefined) headers.authorization = `Bearer ${o.key}`;
  let body: string | Uint8Array | undefined;
  if (o.rawBody !== undefined) body = o.rawBody;
  else if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['content-type'] = 'application/json';
  }
  Object.assign(headers, o.headers ?? {});
  const res = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text.length > 0) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

// ---- world builders ------------------------------------------------------

/** Key of minimalWorld's one member, label `full`. */
export const TEST_FULL_KEY = 'acr_test_full_0001';

/** One subscribed organization `org_test` with an owner and a full-permission key labelled `full`. */
export function minimalWorld(): WorldInput {
  return {
    organizations: [{ id: 'org_test', name: 'Test Org', subscription: true }],
    members: [{ id: 'mem_test_owner', organization: 'org_test', email: 'owner@test.example', role: 'owner', state: 'active' }],
    apiKeys: [{ label: 'full', key: TEST_FULL_KEY, member: 'mem_test_owner', permissions: 'all', description: 'every permission' }],
    advertisers: [],
  };
}

/** Add an advertiser (defaults: org_test, provider_a, USD, connected). */
export function withAdvertiser(world: WorldInput, adv: Partial<AdvertiserInput> & { id: string }): WorldInput {
  const full = { organization: 'org_test', provider: 'provider_a', name: adv.id, currency: 'USD', connection: 'connected', ...adv } as AdvertiserInput;
  return { ...world, advertisers: [...(world.advertisers ?? []), full] };
}

/** Add an organization with an active owner `mem_<id>_owner` and a full key labelled `<id>` (key `acr_test_<id>_0001`). */
export function withOrganization(world: WorldInput, id: string, o: { subscription?: boolean; paywallUrl?: string } = {}): WorldInput {
  const member = `mem_${id}_owner`;
  return {
    ...world,
    organizations: [...world.organizations, { id, name: id, subscription: o.subscription ?? true, ...(o.paywallUrl ? { paywallUrl: o.paywallUrl } : {}) }],
    members: [...(world.members ?? []), { id: member, organization: id, email: `owner@${id.replace(/_/g, '-')}.example`, role: 'owner', state: 'active' }],
    apiKeys: [...(world.apiKeys ?? []), { label: id.replace(/_/g, '-'), key: `acr_test_${id}_0001`, member, permissions: 'all', description: '' }],
  };
}

/** Add a member (default: org_test, role member, active). */
export function withMember(world: WorldInput, m: Partial<MemberInput> & { id: string }): WorldInput {
  const full = { organization: 'org_test', email: `${m.id}@test.example`, role: 'member', state: 'active', ...m } as MemberInput;
  return { ...world, members: [...(world.members ?? []), full] };
}

/** Add a key (default member: mem_test_owner, all permissions, active). */
export function withKey(world: WorldInput, k: Partial<KeyInput> & { label: string; key: string }): WorldInput {
  const full = { member: 'mem_test_owner', permissions: 'all', state: 'active', description: '', ...k } as KeyInput;
  return { ...world, apiKeys: [...(world.apiKeys ?? []), full] };
}
