// What a sandbox runs on once its store is open: the services, the world (when
// the store has none yet), the HTTP app with every route, the ticker and the
// scheduled ingestion. Loaded by index.ts with import(), apart from the store
// and the socket: these pull in zod, Hono and every route, so a store that
// already holds its world (the prebuilt demo world, or a kept one) listens
// first and loads this meanwhile (#16).
import { buildApp } from './app.js';
import type { AppOptions } from './app.js';
import type { Clock } from './clock.js';
import { createServices } from './services.js';
import type { MutationDelays } from './models/lifecycle.js';
import type { SandboxServices } from './services.js';
import type { Database } from './store/sqlite.js';
import { isWorldLoaded, storeSecret } from './store/db.js';
import { loadDemoWorld } from './fixtures/demo-plan.js';
import { loadWorld } from './fixtures/load.js';
import type { World } from './fixtures/schema.js';
import { ingestAll } from './ingest/index.js';
import type { FetchApp } from './server.js';

/** How often a serving sandbox looks for due steps; an idle look is one comparison. */
const TICK_MS = 25;

export interface RuntimeInput {
  db: Database;
  clock: Clock;
  /** Directory of the database file; null for ':memory:'. */
  dataDir: string | null;
  filesDir: string;
  publicUrl: () => string;
  /** The world to load when the store holds none (default: the demo world). */
  world: World | undefined;
  app: AppOptions;
  storageQuotaBytes: number | undefined;
  before20260924: boolean;
  ticker: boolean;
  ingestEveryMs: number | undefined;
  mutationDelays: MutationDelays | undefined;
}

export interface Runtime {
  services: SandboxServices;
  app: FetchApp;
  /**
   * Stops the ticker and the scheduled ingestion; resolves once a mutation pass under way ended (a slow
   * provider's change is recorded before the store closes, not lost to "database connection is not open").
   */
  stop(): Promise<void>;
}

export function startRuntime(input: RuntimeInput): Runtime {
  const { db } = input;
  const services: SandboxServices = createServices({
    db,
    clock: input.clock,
    secret: storeSecret(db),
    dataDir: input.dataDir,
    filesDir: input.filesDir,
    publicUrl: input.publicUrl,
    mutationDelays: input.mutationDelays,
  });
  if (input.storageQuotaBytes !== undefined) services.settings.storageQuotaBytes = input.storageQuotaBytes;
  if (input.before20260924) services.settings.before20260924 = true;
  if (!isWorldLoaded(db)) {
    if (input.world) loadWorld(services, input.world);
    else loadDemoWorld(services);
  }
  const { app } = buildApp(services, input.app);
  // Mutations (also those accepted before a restart) advance without waiting for a request.
  // Not unref'd: it lives exactly as long as the server, and stop() ends it.
  const ticker = input.ticker ? setInterval(() => void services.mutations.advance(), TICK_MS) : undefined;
  const ingester = input.ingestEveryMs ? scheduleIngestion(services, input.ingestEveryMs, input.app.logError) : undefined;
  return {
    services,
    app,
    stop() {
      clearInterval(ticker);
      clearInterval(ingester);
      return services.mutations.settled();
    },
  };
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
