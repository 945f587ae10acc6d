// The one calling convention of the sandbox's models: every operation takes a
// Scope first. It names who is asking (the organization scopes every query,
// so another organization's rows are simply not found; the member starts
// mutations and owns what they create), the store, the time and the secret.
// Models never see HTTP: routes build the scope (routes/scope.ts), tests may
// build one with scopeFor.
import type { Database } from '../store/sqlite.js';
import type { Clock } from '../clock.js';
import type { SandboxServices } from '../services.js';

export interface Scope {
  db: Database;
  /** The calling organization. */
  orgId: string;
  /** The calling member. */
  memberId: string;
  /** The sandbox clock (injectable): every time a model writes comes from it. */
  clock: Clock;
  /** HMAC secret for cursors and upload tokens. */
  secret: Buffer;
  /** The rest of the sandbox, for the few models that need it (files, settings, provider calls). */
  services: SandboxServices;
}

/** The scope of one caller of a sandbox. */
export function scopeFor(services: SandboxServices, caller: { orgId: string; memberId: string }): Scope {
  return { db: services.db, orgId: caller.orgId, memberId: caller.memberId, clock: services.clock, secret: services.secret, services };
}
