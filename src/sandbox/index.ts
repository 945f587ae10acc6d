// Programmatic entry of the sandbox; the CLI's `adops sandbox serve|keys`
// commands call only this file (lazily), so nothing here prints to stdout.
//
// It loads what opening the store and the socket needs and nothing more: the
// services, the routes (zod, Hono) and the world's generator and schema are
// imported when used (runtime.ts, fixtures/load.ts), so a store that already
// holds its world answers "listening" before they are loaded (#16).
import { mkdirSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { servesOldBehaviour } from './http/generation.js';
import type { AppOptions } from './app.js';
import { systemClock } from './clock.js';
import type { Clock } from './clock.js';
import type { SandboxServices } from './services.js';
import { listen } from './server.js';
import type { HttpLimits } from './http/limits.js';
import { isWorldLoaded, openDatabase } from './store/db.js';
import type { Database } from './store/db.js';
import { openSqlite } from './store/sqlite.js';
import { dataDir, moveLegacyData, STORE_FILE } from './store/location.js';
import { defaultSnapshotPath, finishSnapshot, openDemoSnapshot } from './fixtures/snapshot.js';
import type { World, WorldInput } from './fixtures/schema.js';
import { listKeys } from './models/api-keys.js';
import { STORAGE_PATH_PREFIX } from './models/uploads/uploads.js';
import type { Runtime, RuntimeInput } from './runtime.js';
import type { MutationDelays } from './models/lifecycle.js';

export { FixtureError } from './fixtures/fixture-error.js';
export { DEMO_LINE_ITEMS, DEMO_PLAN } from './fixtures/demo-plan-ids.js';
export type { World, WorldInput } from './fixtures/schema.js';

export interface DemoKeyInfo {
  key: string;
  /** Organization id, e.g. org_acme. */
  organization: string;
  label: string;
  description: string;
}

export interface StartOptions {
  host?: string;
  port?: number;
  /** SQLite file, or ':memory:'. Default: defaultDataPath(). */
  data?: string;
  /** JSON world file (docs/fixtures.md); used only when the store is new or reset. */
  fixtures?: string;
  /** In-code world (tests); wins over `fixtures`. */
  world?: WorldInput;
  /** Delete the store (and its uploaded files) first. */
  reset?: boolean;
  /** Default: the system clock. A test passes its own clock and moves it; see `ticker`. */
  clock?: Clock;
  /**
   * Take due lifecycle steps (mutations) every TICK_MS as well as on access.
   * Default: on with the system clock (`sandbox serve`, `demo`), off with an
   * injected clock, where only the test moves time and access takes the steps.
   */
  ticker?: boolean;
  /**
   * Run ingestion (stored reads catch up with the providers) every this many
   * ms, as the real service does on its own. Default 0: off, so tests control
   * ingestion with POST /_sandbox/ingest; `sandbox serve` passes --ingest-every.
   */
  ingestEveryMs?: number;
  /** No notes on stderr (unexpected errors are still reported). */
  quiet?: boolean;
  /** Where notes go (the command's context); default: this process's stderr. */
  note?: (message: string) => void;
  /** The environment that names the default store (the command's context); default: this process's. */
  env?: Record<string, string | undefined>;
  /** The browser origin allowed by CORS (default https://console.adops.example). */
  consoleOrigin?: string;
  /** For tests: routes mounted outside the OpenAPI documents (see AppOptions). */
  extraRoutes?: AppOptions['extraRoutes'];
  /** Where unexpected errors (answered 500 internal) are reported; default stderr. */
  logError?: AppOptions['logError'];
  /** Bounds on one request's work (http/limits.ts); tests pass small ones. */
  limits?: Partial<HttpLimits>;
  /** Bytes each organization may keep stored plus in flight (`settings.storageQuotaBytes`; default 5 GiB). */
  storageQuotaBytes?: number;
  /**
   * How long a mutation stays pending, then running (default 200 and 300 ms: models/lifecycle.ts). For tests
   * that wait for many changes and check none of these times; `sandbox serve` keeps the default.
   */
  mutationDelaysMs?: MutationDelays;
  /** Serve the service as it was on this day (YYYY-MM-DD): before 2026-09-24, the old errors and order of checks. */
  asOf?: string;
  /**
   * The prebuilt demo world (fixtures/snapshot.ts) a new store without fixtures starts from;
   * default: the one beside the bundle (dist/bundle/demo-world.db). null: always generate it.
   */
  snapshot?: string | null;
}

/**
 * Where the store's world came from: the prebuilt demo world, generated now (the demo world, or
 * the fixtures or world given), or kept from an earlier start (a store that already held one).
 */
export type WorldSource = 'snapshot' | 'generated' | 'kept';

export interface RunningSandbox {
  url: string;
  host: string;
  port: number;
  dataPath: string;
  keys: DemoKeyInfo[];
  services: SandboxServices;
  world: WorldSource;
  close(): Promise<void>;
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4010;

/** ADOPS_SANDBOX_DATA if set, else `<XDG_DATA_HOME or ~/.local/share>/adops/sandbox.db` (store/location.ts). */
export function defaultDataPath(env: Record<string, string | undefined> = process.env): string {
  const fromEnv = env.ADOPS_SANDBOX_DATA;
  if (fromEnv) return fromEnv;
  return join(dataDir(env), STORE_FILE);
}

/** The default store, after moving one left under the pre-#18 name (a note says so). */
function defaultStore(env: Record<string, string | undefined>, note: (msg: string) => void): string {
  const path = defaultDataPath(env);
  if (!env.ADOPS_SANDBOX_DATA) {
    const moved = moveLegacyData(env);
    if (moved) note(moved);
  }
  return path;
}

const stderrNote = (msg: string): void => void process.stderr.write(`${msg}\n`);

function filesDirFor(dataPath: string): string {
  return join(dirname(dataPath), `${basename(dataPath)}-files`);
}

function removeStore(dataPath: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(dataPath + suffix, { force: true });
  rmSync(filesDirFor(dataPath), { recursive: true, force: true });
}

function urlOf(host: string, port: number): string {
  // A wildcard address is where we listen, not where a client can reach us.
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

const toInfo = (k: DemoKeyInfo): DemoKeyInfo => ({ key: k.key, organization: k.organization, label: k.label, description: k.description });

/** A sandbox listening, whose routes may still be loading (`ready`); what `sandbox serve` prints comes from here. */
export interface BootedSandbox {
  url: string;
  host: string;
  port: number;
  dataPath: string;
  keys: DemoKeyInfo[];
  world: WorldSource;
  /** Serves the behaviour from before 2026-09-24 (`asOf`). */
  before20260924: boolean;
  /** The sandbox once its services and routes are loaded; requests that came first are answered then. */
  ready: Promise<RunningSandbox>;
  close(): Promise<void>;
}

/** Start a sandbox and resolve once it serves every route (a test can use it at once). */
export async function startSandbox(opts: StartOptions = {}): Promise<RunningSandbox> {
  const booted = await bootSandbox(opts);
  try {
    return await booted.ready;
  } catch (err) {
    await booted.close();
    throw err;
  }
}

/**
 * Start a sandbox and resolve once it listens. A store that already holds its world (the prebuilt
 * demo world, or one kept from an earlier start) listens before the services and routes are
 * loaded: a request that comes meanwhile waits for them, and is answered as it would be later.
 * A world that must be generated first is loaded before listening, as before.
 */
export async function bootSandbox(opts: StartOptions = {}): Promise<BootedSandbox> {
  const host = opts.host ?? DEFAULT_HOST;
  const port = opts.port ?? DEFAULT_PORT;
  const note = (msg: string) => {
    if (!opts.quiet) (opts.note ?? stderrNote)(msg);
  };
  const dataPath = opts.data ?? defaultStore(opts.env ?? process.env, note);
  const memory = dataPath === ':memory:';
  const store = await openStore(opts, dataPath, note);
  const { db, loaded } = store;
  const filesDir = memory ? mkdtempSync(join(tmpdir(), 'adops-sandbox-')) : filesDirFor(dataPath);
  if (!memory) mkdirSync(filesDir, { recursive: true });
  let publicUrl = '';
  const input: RuntimeInput = {
    db,
    clock: store.clock,
    dataDir: memory ? null : dirname(dataPath),
    filesDir,
    publicUrl: () => publicUrl,
    world: store.given,
    app: appOptionsOf(opts),
    storageQuotaBytes: opts.storageQuotaBytes,
    before20260924: store.old,
    // Default: on with the system clock (`sandbox serve`, `demo`), off with a test's clock.
    ticker: opts.ticker ?? opts.clock === undefined,
    ingestEveryMs: opts.ingestEveryMs,
    mutationDelays: opts.mutationDelaysMs,
  };
  let runtime: Runtime | undefined;
  let closed = false;
  // The store closes once no pass of the mutation advancer uses it (the server closed: no request starts one).
  const cleanup = async (): Promise<void> => {
    if (runtime) await runtime.stop();
    if (db.open) db.close();
    if (memory) rmSync(filesDir, { recursive: true, force: true });
  };
  const load = async (): Promise<Runtime> => {
    const { startRuntime } = await import('./runtime.js');
    // Closed while it loaded: no timers, no world (cleanup closed the store).
    if (closed) throw new Error('the sandbox was closed before its routes were loaded');
    runtime = startRuntime(input);
    return runtime;
  };

  try {
    // A world to load needs the runtime before listening; a store that holds its world listens first.
    let listening = (): void => undefined;
    const started = loaded ? new Promise<void>((resolve) => (listening = resolve)).then(load) : load();
    if (!loaded) await started;
    // Marked handled here: whoever awaits `ready` (or sends a request) sees a failure.
    started.catch(() => undefined);
    const server = await listen(
      started.then((r) => r.app),
      host,
      port,
      {
        ...(opts.limits ? { limits: opts.limits } : {}),
        holdsContinue: (path) => path.startsWith(STORAGE_PATH_PREFIX),
      },
    );
    publicUrl = urlOf(host, server.port);
    listening();
    let closing: Promise<void> | null = null;
    const close = () => {
      closed = true;
      closing ??= server.close().finally(cleanup);
      return closing;
    };
    const keys = listKeys(db).map(toInfo);
    const sandbox = { url: publicUrl, host, port: server.port, dataPath, keys, world: store.world };
    const ready = started.then((r) => ({ ...sandbox, services: r.services, close }));
    ready.catch(() => undefined); // a sandbox closed while loading: only who awaits `ready` hears of it
    return { ...sandbox, before20260924: store.old, ready, close };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** The store a start serves, open, and the world it holds or will load. */
interface OpenedStore {
  db: Database;
  clock: Clock;
  /** The world given (fixtures file or in code), parsed; undefined for the demo world. */
  given: World | undefined;
  /** The store already holds its world: no world to load before listening. */
  loaded: boolean;
  world: WorldSource;
  /** Serves the behaviour from before 2026-09-24 (`asOf`). */
  old: boolean;
}

async function openStore(opts: StartOptions, dataPath: string, note: (msg: string) => void): Promise<OpenedStore> {
  // A bad date or fixture file stops the start before the store is touched.
  const old = opts.asOf !== undefined && servesOldBehaviour(opts.asOf);
  const fixtures = opts.world || opts.fixtures ? await import('./fixtures/load.js') : undefined;
  const given: World | undefined = opts.world ? fixtures?.parseWorld(opts.world) : opts.fixtures ? fixtures?.readWorldFile(opts.fixtures) : undefined;

  if (opts.reset && dataPath !== ':memory:') removeStore(dataPath);
  const clock = opts.clock ?? systemClock;
  // The demo world on a new store: from its prebuilt image when that can be taken as it is.
  const snapshot = given ? null : opts.snapshot === undefined ? defaultSnapshotPath() : opts.snapshot;
  const fromSnapshot = snapshot === null ? undefined : openDemoSnapshot(snapshot, dataPath, clock);
  const db = fromSnapshot ?? openDatabase(dataPath);
  // A file copied from the image by a start that stopped before moving its times.
  if (!fromSnapshot) finishSnapshot(db, clock);
  const loaded = isWorldLoaded(db);
  if (loaded && given) note(`adops sandbox: ${dataPath} already holds a world; it is kept (start with --reset to load the fixtures).`);
  return { db, clock, given, loaded, world: fromSnapshot ? 'snapshot' : loaded ? 'kept' : 'generated', old };
}

function appOptionsOf(opts: StartOptions): AppOptions {
  const app: AppOptions = {};
  if (opts.consoleOrigin) app.consoleOrigin = opts.consoleOrigin;
  if (opts.extraRoutes) app.extraRoutes = opts.extraRoutes;
  if (opts.logError) app.logError = opts.logError;
  if (opts.limits) app.limits = opts.limits;
  return app;
}

/** Keys for `adops sandbox keys`: from the store if it holds a world, else from the world it would load. */
export async function readKeys(
  opts: { data?: string; fixtures?: string; env?: Record<string, string | undefined>; note?: (message: string) => void } = {},
): Promise<DemoKeyInfo[]> {
  const dataPath = opts.data ?? defaultStore(opts.env ?? process.env, opts.note ?? stderrNote);
  if (dataPath !== ':memory:' && existsSync(dataPath)) {
    const db = openSqlite(dataPath, { readonly: true });
    try {
      const loaded = db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'sandbox_meta'`).get() !== undefined && isWorldLoaded(db);
      if (loaded) return listKeys(db).map(toInfo);
    } finally {
      db.close();
    }
  }
  // The demo's keys do not depend on its (slow to generate) provider entities.
  const [{ readWorldFile, parseWorld }, { demoPlatformInput }] = await Promise.all([import('./fixtures/load.js'), import('./fixtures/demo.js')]);
  const world = opts.fixtures ? readWorldFile(opts.fixtures) : parseWorld(demoPlatformInput(), 'the demo world');
  const orgOf = new Map(world.members.map((m) => [m.id, m.organization]));
  return world.apiKeys.map((k) => ({ key: k.key, organization: orgOf.get(k.member) ?? '', label: k.label, description: k.description }));
}

export type { RaceRelay } from './demo/race-relay.js';

/** `adops demo`'s racing-writer relay in front of a sandbox (./demo/race-relay.ts); loaded only when called. */
export async function startRaceRelay(target: string, path: string, otherWriter: () => Promise<void>): Promise<import('./demo/race-relay.js').RaceRelay> {
  const relay = await import('./demo/race-relay.js');
  return relay.startRaceRelay(target, path, otherWriter);
}
