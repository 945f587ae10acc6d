// Programmatic entry of the sandbox; the CLI's `adops sandbox serve|keys`
// commands call only this file (lazily), so nothing here prints to stdout.
import { mkdirSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { buildApp } from './app.js';
import { servesOldBehaviour } from './http/generation.js';
import type { AppOptions } from './app.js';
import { systemClock } from './clock.js';
import type { Clock } from './clock.js';
import { createServices } from './services.js';
import type { SandboxServices } from './services.js';
import { listen } from './server.js';
import type { HttpLimits } from './http/limits.js';
import { isWorldLoaded, openDatabase, storeSecret } from './store/db.js';
import { openSqlite } from './store/sqlite.js';
import { dataDir, moveLegacyData, STORE_FILE } from './store/location.js';
import { demoPlatformInput, demoWorld } from './fixtures/demo.js';
import { loadWorld, parseWorld, readWorldFile } from './fixtures/load.js';
import { defaultSnapshotPath, finishSnapshot, openDemoSnapshot } from './fixtures/snapshot.js';
import type { World, WorldInput } from './fixtures/schema.js';
import { listKeys } from './models/api-keys.js';
import { STORAGE_PATH_PREFIX } from './models/uploads/uploads.js';
import { ingestAll } from './ingest/index.js';

export { FixtureError } from './fixtures/load.js';
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

/** How often a serving sandbox looks for due steps; an idle look is one comparison. */
const TICK_MS = 25;

/** ADOPS_SANDBOX_DATA if set, else `<XDG_DATA_HOME or ~/.local/share>/adops/sandbox.db` (store/location.ts). */
export function defaultDataPath(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.ADOPS_SANDBOX_DATA;
  if (fromEnv) return fromEnv;
  return join(dataDir(env), STORE_FILE);
}

/** The default store, after moving one left under the pre-#18 name (a note says so). */
function defaultStore(note: (msg: string) => void): string {
  const path = defaultDataPath();
  if (!process.env.ADOPS_SANDBOX_DATA) {
    const moved = moveLegacyData(process.env);
    if (moved) note(moved);
  }
  return path;
}

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

export async function startSandbox(opts: StartOptions = {}): Promise<RunningSandbox> {
  const host = opts.host ?? DEFAULT_HOST;
  const port = opts.port ?? DEFAULT_PORT;
  const note = (msg: string) => {
    if (!opts.quiet) process.stderr.write(`${msg}\n`);
  };
  const dataPath = opts.data ?? defaultStore(note);
  const memory = dataPath === ':memory:';

  // A bad date or fixture file stops the start before the store is touched.
  const old = opts.asOf !== undefined && servesOldBehaviour(opts.asOf);
  const given: World | undefined = opts.world ? parseWorld(opts.world) : opts.fixtures ? readWorldFile(opts.fixtures) : undefined;

  if (opts.reset && !memory) removeStore(dataPath);
  const clock = opts.clock ?? systemClock;
  // The demo world on a new store: from its prebuilt image when that can be taken as it is.
  const snapshot = given ? null : opts.snapshot === undefined ? defaultSnapshotPath() : opts.snapshot;
  const fromSnapshot = snapshot === null ? undefined : openDemoSnapshot(snapshot, dataPath, clock);
  const db = fromSnapshot ?? openDatabase(dataPath);
  // A file copied from the image by a start that stopped before moving its times.
  if (!fromSnapshot) finishSnapshot(db, clock);
  let world: WorldSource = fromSnapshot ? 'snapshot' : 'kept';
  let ticker: NodeJS.Timeout | undefined;
  let ingester: NodeJS.Timeout | undefined;
  let publicUrl = '';
  let filesDir: string;
  if (memory) {
    filesDir = mkdtempSync(join(tmpdir(), 'adops-sandbox-'));
  } else {
    filesDir = filesDirFor(dataPath);
    mkdirSync(filesDir, { recursive: true });
  }
  const services: SandboxServices = createServices({
    db,
    clock,
    secret: storeSecret(db),
    dataDir: memory ? null : dirname(dataPath),
    filesDir,
    publicUrl: () => publicUrl,
  });
  if (opts.storageQuotaBytes !== undefined) services.settings.storageQuotaBytes = opts.storageQuotaBytes;
  if (old) services.settings.before20260924 = true;
  const cleanup = () => {
    clearInterval(ticker);
    clearInterval(ingester);
    if (db.open) db.close();
    if (memory) rmSync(filesDir, { recursive: true, force: true });
  };

  try {
    if (!isWorldLoaded(db)) {
      loadWorld(services, given ?? demoWorld());
      world = 'generated';
    } else if (given) {
      note(`adops sandbox: ${dataPath} already holds a world; it is kept (start with --reset to load the fixtures).`);
    }
    const appOptions: AppOptions = {};
    if (opts.consoleOrigin) appOptions.consoleOrigin = opts.consoleOrigin;
    if (opts.extraRoutes) appOptions.extraRoutes = opts.extraRoutes;
    if (opts.logError) appOptions.logError = opts.logError;
    if (opts.limits) appOptions.limits = opts.limits;
    const { app } = buildApp(services, appOptions);
    if (opts.ticker ?? opts.clock === undefined) {
      // Mutations (also those accepted before a restart) advance without waiting for a request.
      // Not unref'd: it lives exactly as long as the server, and close() stops it.
      ticker = setInterval(() => void services.mutations.advance(), TICK_MS);
    }
    if (opts.ingestEveryMs) ingester = scheduleIngestion(services, opts.ingestEveryMs, opts.logError);
    const server = await listen(app, host, port, {
      ...(opts.limits ? { limits: opts.limits } : {}),
      holdsContinue: (path) => path.startsWith(STORAGE_PATH_PREFIX),
    });
    publicUrl = urlOf(host, server.port);
    let closing: Promise<void> | null = null;
    return {
      url: publicUrl,
      host,
      port: server.port,
      dataPath,
      keys: listKeys(db).map(toInfo),
      services,
      world,
      close() {
        closing ??= server.close().finally(cleanup);
        return closing;
      },
    };
  } catch (err) {
    cleanup();
    throw err;
  }
}

function scheduleIngestion(services: SandboxServices, everyMs: number, logError: AppOptions['logError']): NodeJS.Timeout {
  return setInterval(() => {
    try {
      ingestAll(services);
    } catch (err) {
      // A failed round leaves the stored rows as they were (one transaction); the next round tries again.
      if (logError) logError(err);
      else process.stderr.write(`adops sandbox: ingestion failed: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }, everyMs);
}

/** Keys for `adops sandbox keys`: from the store if it holds a world, else from the world it would load. */
export function readKeys(opts: { data?: string; fixtures?: string } = {}): DemoKeyInfo[] {
  const dataPath = opts.data ?? defaultStore((msg) => process.stderr.write(`${msg}\n`));
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
  const world = opts.fixtures ? readWorldFile(opts.fixtures) : parseWorld(demoPlatformInput(), 'the demo world');
  const orgOf = new Map(world.members.map((m) => [m.id, m.organization]));
  return world.apiKeys.map((k) => ({ key: k.key, organization: orgOf.get(k.member) ?? '', label: k.label, description: k.description }));
}
