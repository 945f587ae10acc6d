// What every handler can reach: the authenticated caller (`c.var.auth`) and the
// sandbox's services (`c.var.sandbox`). Plain types, no Hono runtime code.
import type { Database } from 'better-sqlite3';
import type { Permission } from '../../contract/ids.js';
import type { HttpLimits } from './limits.js';

/** Time source of the sandbox; inject a ManualClock in tests instead of faking timers. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to. */
export class ManualClock implements Clock {
  #now: number;
  constructor(start: number = Date.UTC(2026, 9, 1, 12, 0, 0)) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  set(ms: number): void {
    this.#now = ms;
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}

export interface AuthContext {
  orgId: string;
  memberId: string;
  keyId: string;
  permissions: ReadonlySet<Permission>;
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
  /** http://host:port the server is reachable at, for minting upload URLs. */
  publicUrl(): string;
  /** Run fn every ms milliseconds until the sandbox closes. */
  every(ms: number, fn: () => void): void;
  /** Other domains hang their own services here (e.g. `providers`). */
  [extension: string]: unknown;
}

export type AppEnv = { Variables: { auth: AuthContext; sandbox: SandboxServices; limits: HttpLimits } };
