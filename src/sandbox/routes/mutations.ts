// Routes of the Mutations API (thin: parse, call the model, answer). The change
// itself is applied when due (models/mutations-worker.ts): every request here
// first takes the steps that are due, so a reader never sees a stale state,
// and never waits on a provider still applying a change.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv, SandboxServices } from '../http/context.js';
import { operationRoute } from '../http/route.js';
import { scopeOf } from './scope.js';
import { listMutations, readMutationAsStarter, startMutation } from '../models/mutations.js';

/**
 * Take the mutation steps due by now before answering (used by the Observe
 * routes too: a live read sees applied changes). A step that waits on a
 * provider (its latency) is not waited for: the read answers at once, the
 * mutation still `running` until the provider is done (#13). Every step that
 * needs no provider time is taken before the answer: a pass settles within
 * microtasks unless a provider sleeps, and setImmediate comes after those.
 */
export const settleDueSteps = (services: SandboxServices): Promise<void> =>
  Promise.race([services.mutations.advance(), new Promise<void>((resolve) => setImmediate(resolve))]);

export const advanceDueSteps: MiddlewareHandler<AppEnv> = async (c, next) => {
  await settleDueSteps(c.var.sandbox);
  await next();
};

export function registerMutationsRoutes(app: OpenAPIHono<AppEnv>): void {
  app.use('/mutations', advanceDueSteps);
  app.use('/mutations/*', advanceDueSteps);

  app.openapi(
    operationRoute('listMutations', {
      responses: { 200: "A page of the organization's mutations, newest first." },
      errors: ['invalid_cursor'],
    }),
    (c) => c.json(listMutations(scopeOf(c), c.req.valid('query')), 200),
  );

  app.openapi(
    operationRoute('createMutation', {
      responses: {
        202: 'Accepted: the mutation, `pending`. Poll GET /mutations/{id} until `succeeded` or `failed`. With a reused Idempotency-Key and the same body: the mutation already started, in its current state.',
      },
      errors: ['advertiser_not_owned', 'provider_not_connected', 'missing_write_access', 'invalid_amount', 'idempotency_key_reused'],
    }),
    (c) => {
      const { mutation } = startMutation(scopeOf(c), c.req.valid('json'), { idempotencyKey: c.req.valid('header')['idempotency-key'] });
      return c.json(mutation, 202);
    },
  );

  app.openapi(
    operationRoute('getMutation', {
      responses: { 200: 'The mutation in its current state (failed carries the error, succeeded the entity).' },
      errors: ['not_found'],
    }),
    (c) => c.json(readMutationAsStarter(scopeOf(c), c.req.valid('param').id), 200),
  );
}
