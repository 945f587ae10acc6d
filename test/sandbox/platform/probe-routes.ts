// Probe operations for the platform tests: real operation entries (so method,
// permission and middleware come from the operation table) with schemas of
// their own (routeConfig, which operationRoute builds on), mounted under
// /_probe so they never collide with the real routes nor enter the documents.
import { z } from 'zod';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../src/sandbox/http/context.js';
import { routeConfig } from '../../../src/sandbox/http/route.js';
import { operation } from '../../../src/contract/operations.js';
import { keysetPage } from '../../../src/sandbox/store/cursor.js';
import { pageQueryShape, pageSchema } from '../../../src/contract/schemas/common.js';

export const probeBody = z.strictObject({
  name: z.string().min(1).max(50),
  count: z.number().int().min(0).optional(),
  tags: z.array(z.string()).max(3).optional(),
});

export const probeAdvertiserRow = z.object({ id: z.string(), name: z.string() });

/**
 * Requests held in the slow probe until the test releases them: `arrived()`
 * resolves once one is inside the handler, `release()` lets them all answer.
 * Events, not sleeps, so a test knows a request is in flight.
 */
export class HeldRequests {
  #arrivals: Array<() => void> = [];
  #inside = 0;
  #gate!: Promise<void>;
  #open!: () => void;
  constructor() {
    this.#close();
  }
  #close(): void {
    this.#gate = new Promise((resolve) => (this.#open = resolve));
  }
  arrived(): Promise<void> {
    return this.#inside > 0 ? Promise.resolve() : new Promise((resolve) => this.#arrivals.push(resolve));
  }
  async enter(): Promise<void> {
    this.#inside += 1;
    for (const a of this.#arrivals.splice(0)) a();
    await this.#gate;
    this.#inside -= 1;
  }
  release(): void {
    this.#open();
    this.#close();
  }
}

export const held = new HeldRequests();

const probe = <T extends { path: string }>(route: T): T => ({ ...route, path: `/_probe${route.path}` });

export function registerProbeRoutes(app: OpenAPIHono<AppEnv>): void {
  // createSkill: POST with a required body, permission skill:write.
  app.openapi(probe(routeConfig(operation('createSkill'), { body: probeBody, response: probeBody }, { responses: { 201: 'created' } })), (c) =>
    c.json(c.req.valid('json'), 201),
  );
  // listCampaigns: a keyset list over the advertisers table (the one platform table with seq).
  app.openapi(
    probe(
      routeConfig(
        operation('listCampaigns'),
        {
          query: z.object({ ...pageQueryShape, provider: z.enum(['provider_a', 'provider_b', 'provider_c', 'provider_d']).optional() }),
          response: pageSchema(probeAdvertiserRow),
        },
        { responses: { 200: 'page' }, errors: ['invalid_cursor'] },
      ),
    ),
    (c) => {
      const { cursor, limit, ...filters } = c.req.valid('query');
      const { db, secret } = c.var.sandbox;
      const page = keysetPage<{ id: string; name: string }, { id: string; name: string }>({
        db,
        secret,
        scope: 'listCampaigns',
        filters,
        cursor,
        limit,
        select: 'a.id, a.name',
        from: 'advertisers a',
        seq: 'a.seq',
        where: ['a.org_id = @org', filters.provider ? 'a.provider = @provider' : null],
        params: { org: c.var.auth.orgId, provider: filters.provider },
        map: (r) => r,
      });
      return c.json(page, 200);
    },
  );
  // getSkill: a path parameter, permission skill:read.
  app.openapi(
    probe(
      routeConfig(
        operation('getSkill'),
        {
          params: z.object({ slug: z.string().regex(/^[a-z0-9-]+$/, { message: 'must be lowercase letters, digits and hyphens' }) }),
          response: z.object({ slug: z.string(), org: z.string() }),
        },
        { responses: { 200: 'one' }, errors: ['not_found'] },
      ),
    ),
    (c) => c.json({ slug: c.req.valid('param').slug, org: c.var.auth.orgId }, 200),
  );
  // getLiveCampaign: held until the test calls held.release(), to keep a request in flight.
  app.openapi(
    probe(
      routeConfig(
        operation('getLiveCampaign'),
        { params: z.object({ advertiserId: z.string().startsWith('acc_'), id: z.string().regex(/^[0-9]{1,4}$/) }), response: z.object({ waited: z.number() }) },
        { responses: { 200: 'slow' } },
      ),
    ),
    async (c) => {
      await held.enter();
      return c.json({ waited: Number(c.req.valid('param').id) }, 200);
    },
  );
  // deleteSkill: a handler that fails unexpectedly (a bug) → 500 internal.
  app.openapi(probe(routeConfig(operation('deleteSkill'), { params: z.object({ slug: z.string() }) }, { responses: { 204: 'never' } })), () => {
    throw new TypeError('secret internal detail');
  });
}
