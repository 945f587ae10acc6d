// Handlers of the Mutations API (thin: parse, call the model, answer). The change
// itself is applied when due (models/mutations-worker.ts): every request here
// first takes the steps that are due, so a reader never sees a stale state,
// and never waits on a provider still applying a change.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv, SandboxServices } from '../http/context.js';
import type { HandlerMap } from '../http/handler.js';
import { scopeOf } from './scope.js';
import { listMutations, readMutationAsStarter, startMutation } from '../models/mutations.js';

const SETTLED: Promise<void> = Promise.resolve();

/**
 * Take the mutation steps due by now before answering (used by the Observe
 * routes too: a live read sees applied changes). A step that waits on a
 * provider (its latency) is not waited for: the read answers at once, the
 * mutation still `running` until the provider is done (#13). Every step that
 * needs no provider time is taken before the answer: a pass settles within
 * microtasks unless a provider sleeps, and setImmediate comes after those.
 */
export const settleDueSteps = (services: SandboxServices): Promise<void> =>
  // Nothing due and no pass under way (the common case): no pass to race, no Immediate to set (#27).
  services.mutations.idle ? SETTLED : Promise.race([services.mutations.advance(), new Promise<void>((resolve) => setImmediate(resolve))]);

export const advanceDueSteps: MiddlewareHandler<AppEnv> = async (c, next) => {
  await settleDueSteps(c.get('sandbox'));
  await next();
};

/** What runs before every Mutations route: the due steps. */
export function useMutationsMiddleware(app: OpenAPIHono<AppEnv>): void {
  app.use('/mutations', advanceDueSteps);
  app.use('/mutations/*', advanceDueSteps);
}

export const MUTATIONS_HANDLERS = {
  listMutations: (c) => c.json(listMutations(scopeOf(c), c.req.valid('query')), 200),

  createMutation: (c) => {
    const { mutation } = startMutation(scopeOf(c), c.req.valid('json'), { idempotencyKey: c.req.valid('header')['idempotency-key'] });
    return c.json(mutation, 202);
  },

  getMutation: (c) => c.json(readMutationAsStarter(scopeOf(c), c.req.valid('param').id), 200),
} satisfies HandlerMap<'listMutations' | 'createMutation' | 'getMutation'>;
