// What every handler can reach: the authenticated caller (`c.get('auth')`) and the
// sandbox's services (`c.get('sandbox')`). Plain types, no Hono runtime code.
// Read with c.get, never c.var: Hono's `c.var` builds an object of every variable
// on each access (Object.fromEntries), a few of them on every request (#27).
import type { HttpBindings } from '@hono/node-server';
import type { Permission } from '../../contract/ids.js';
import type { HttpLimits } from './limits.js';

// The clock and the services are defined beside the models that use them.
export type { Clock } from '../clock.js';
export { systemClock } from '../clock.js';
export type { SandboxServices } from '../services.js';
import type { SandboxServices } from '../services.js';

export interface AuthContext {
  orgId: string;
  memberId: string;
  keyId: string;
  permissions: ReadonlySet<Permission>;
  /** When the key stops resolving (epoch ms), or null: never. */
  expiresAt: number | null;
}

/** Bindings: the Node request and response when node-server serves the app; absent under app.request(). */
export type AppEnv = {
  Bindings: Partial<HttpBindings>;
  Variables: { auth: AuthContext; sandbox: SandboxServices; limits: HttpLimits };
};
