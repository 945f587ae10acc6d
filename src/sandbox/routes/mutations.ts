// Routes of the Mutations API (thin: parse, call the model, answer). The change
// itself is applied later by the worker (models/mutations-worker.ts), which the
// first request to /mutations starts for its sandbox.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import {
  createMutationBody,
  idempotencyHeaders,
  listMutationsQuery,
  mutationPageSchema,
  mutationParams,
  mutationSchema,
} from '../../contract/schemas/mutations.js';
import type { AppEnv, SandboxServices } from '../http/context.js';
import { operationRoute } from '../http/route.js';
import { listMutations, readMutationAsStarter, startMutation } from '../models/mutations.js';
import { startMutationWorker } from '../models/mutations-worker.js';
import { applyProviderChange } from '../providers/mutate.js';

/** Start this sandbox's worker (idempotent). Exported so a server can start it at boot. */
export function ensureMutationWorker(services: SandboxServices): void {
  startMutationWorker(services, (advertiser, change) => applyProviderChange(services, advertiser, change));
}

const withWorker: MiddlewareHandler<AppEnv> = async (c, next) => {
  ensureMutationWorker(c.var.sandbox);
  await next();
};

export function registerMutationsRoutes(app: OpenAPIHono<AppEnv>): void {
  app.use('/mutations', withWorker);
  app.use('/mutations/*', withWorker);

  app.openapi(
    operationRoute('listMutations', {
      request: { query: listMutationsQuery },
      responses: { 200: { description: "A page of the organization's mutations, newest first.", schema: mutationPageSchema } },
      errors: ['invalid_cursor'],
    }),
    (c) => {
      const { db, secret } = c.var.sandbox;
      return c.json(listMutations(db, secret, c.var.auth.orgId, c.req.valid('query')), 200);
    },
  );

  app.openapi(
    operationRoute('createMutation', {
      request: { headers: idempotencyHeaders, body: createMutationBody },
      responses: {
        202: {
          description:
            'Accepted: the mutation, `pending`. Poll GET /mutations/{id} until `succeeded` or `failed`. With a reused Idempotency-Key and the same body: the mutation already started, in its current state.',
          schema: mutationSchema,
        },
      },
      errors: ['advertiser_not_owned', 'provider_not_connected', 'missing_write_access', 'invalid_amount', 'idempotency_key_reused'],
    }),
    (c) => {
      const { mutation } = startMutation(c.var.sandbox.db, c.var.auth, c.req.valid('json'), {
        now: c.var.sandbox.clock.now(),
        idempotencyKey: c.req.valid('header')['idempotency-key'],
      });
      return c.json(mutation, 202);
    },
  );

  app.openapi(
    operationRoute('getMutation', {
      request: { params: mutationParams },
      responses: { 200: { description: 'The mutation in its current state (failed carries the error, succeeded the entity).', schema: mutationSchema } },
      errors: ['not_found'],
    }),
    (c) => c.json(readMutationAsStarter(c.var.sandbox.db, c.var.auth, c.req.valid('param').id), 200),
  );
}
