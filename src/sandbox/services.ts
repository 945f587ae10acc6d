// What a sandbox holds for its handlers and models, built in one place
// (createServices) with every field typed: no index signature, no module-level
// singletons keyed by the services object. Tests may swap the overrides in
// `settings` on a running sandbox.
import type { Database } from './store/sqlite.js';
import type { CatalogSkill } from '../contract/schemas/context.js';
import type { Clock } from './clock.js';
import { MutationAdvancer } from './models/mutations-worker.js';
import type { MutationDelays } from './models/lifecycle.js';
import { createFileStore } from './models/uploads/file-store.js';
import type { FileStore } from './models/uploads/file-store.js';
import type { MediaLimits } from './models/uploads/limits.js';
import { BytesInFlight } from './models/uploads/quota.js';
import { applyProviderChange } from './providers/mutate.js';
import { ProviderCallLog } from './providers/call-log.js';
import { PageCache } from './store/page-cache.js';

/** The service console's origin: the one browser origin allowed (http/cors.ts), and where paywall URLs point. */
export const DEFAULT_CONSOLE_ORIGIN = 'https://console.adops.example';

/** Overrides a test world (or a future flag) may set; unset means the built-in default. */
export interface SandboxSettings {
  /** Per media type, merged over the default Asset limits. */
  assetLimits?: MediaLimits;
  /** Per media type, merged over the default Document limits. */
  documentLimits?: MediaLimits;
  /** Replaces the built-in Skill Catalog. */
  skillCatalog?: readonly CatalogSkill[];
  /** Bytes an organization may keep stored plus in flight (default 5 GiB; `sandbox serve --storage-quota`). */
  storageQuotaBytes?: number;
  /** Serve the behaviour from before 2026-09-24 (`sandbox serve --as-of`; http/generation.ts). */
  before20260924?: boolean;
}

export interface SandboxServices {
  db: Database;
  clock: Clock;
  /** HMAC secret for cursors and upload tokens; persisted in the store so cursors survive restarts. */
  secret: Buffer;
  /** Directory of the database file; null for ':memory:'. */
  dataDir: string | null;
  /** Where uploaded bytes are stored (a temp dir for ':memory:', removed on close). */
  filesDir: string;
  /** The byte store under filesDir. */
  files: FileStore;
  /** Bytes of upload PUTs streaming now, per organization (the storage quota counts them). */
  uploadsInFlight: BytesInFlight;
  /** http://host:port the server is reachable at, for minting upload URLs. */
  publicUrl(): string;
  settings: SandboxSettings;
  /** Calls made to each simulated provider (rate windows, error draws). */
  providerCalls: ProviderCallLog;
  /** Takes the due steps of mutations (on access, and by the ticker of a serving sandbox). */
  mutations: MutationAdvancer;
  /** Bodies of stored pages, kept while the store is unchanged (store/page-cache.ts). */
  storedPages: PageCache;
}

export interface ServiceInputs {
  db: Database;
  clock: Clock;
  secret: Buffer;
  dataDir: string | null;
  filesDir: string;
  publicUrl?: () => string;
  /** How long a mutation stays pending, then running (default: the transition table's). */
  mutationDelays?: MutationDelays | undefined;
}

export function createServices(inputs: ServiceInputs): SandboxServices {
  const files = createFileStore(inputs.filesDir);
  // Temp files of a process that died mid-upload; nothing waits on this.
  void files.sweepTemp();
  // The providers' side of the services: the advancer applies changes through it.
  const providers = { db: inputs.db, clock: inputs.clock, providerCalls: new ProviderCallLog() };
  return {
    ...inputs,
    publicUrl: inputs.publicUrl ?? (() => ''),
    files,
    uploadsInFlight: new BytesInFlight(),
    settings: {},
    providerCalls: providers.providerCalls,
    mutations: new MutationAdvancer({
      db: inputs.db,
      clock: inputs.clock,
      apply: (advertiser, change) => applyProviderChange(providers, advertiser, change),
      delays: inputs.mutationDelays,
    }),
    // A store in memory has no other connection to commit to it: no data_version to ask.
    storedPages: new PageCache(inputs.db, { shared: inputs.dataDir !== null }),
  };
}
