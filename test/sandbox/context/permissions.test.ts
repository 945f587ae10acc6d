// Permissions of every Context operation (spec: skill:*, brand:*,
// campaign_plan:*), and the OpenAPI description of context being complete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPath, OPERATIONS, pathParams } from '../../../src/contract/operations.js';
import { OBSERVE_ONLY_KEY, READ_ONLY_KEY, startContextSandbox } from './world.js';
import type { Ctx } from './world.js';

const CONTEXT_OPS = OPERATIONS.filter((o) => o.api === 'context');

let ctx: Ctx;
beforeAll(async () => {
  ctx = await startContextSandbox();
});
afterAll(() => ctx.sb.close());

const pathOf = (template: string) =>
  fillPath(template, Object.fromEntries(pathParams(template).map((p) => [p, p === 'advertiserId' ? 'acc_ctx_a' : 'some-thing'])));

describe('permissions', () => {
  it("has the 38 context operations of the spec's list", () => {
    expect(CONTEXT_OPS).toHaveLength(38);
  });

  it.each(CONTEXT_OPS.map((o) => [o.id, o] as const))('%s: a key without the permission gets 403 forbidden', async (_id, op) => {
    const res = await ctx.call(op.method, pathOf(op.path), { key: OBSERVE_ONLY_KEY, ...(op.method === 'POST' || op.method === 'PATCH' ? { body: {} } : {}) });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('forbidden');
  });

  it.each(CONTEXT_OPS.map((o) => [o.id, o] as const))('%s: a read-only key is refused writes and allowed reads', async (_id, op) => {
    const res = await ctx.call(op.method, pathOf(op.path), { key: READ_ONLY_KEY, ...(op.method === 'POST' || op.method === 'PATCH' ? { body: {} } : {}) });
    if (op.permission.endsWith(':write')) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('forbidden');
    } else {
      expect([200, 404]).toContain(res.status);
    }
  });

  it('checks the key before the body: no key plus a bad body is 401', async () => {
    const res = await ctx.sb.req('POST', '/context/brands', { body: { slug: 1 } });
    expect(res.status).toBe(401);
  });
});

describe('OpenAPI description of context', () => {
  it('describes every context operation with its request, response and error schemas', async () => {
    const res = await ctx.sb.req('GET', '/openapi/context.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    for (const op of CONTEXT_OPS) {
      const path = doc.paths[op.path];
      expect(path, op.path).toBeDefined();
      const o = path[op.method.toLowerCase()];
      expect(o, `${op.method} ${op.path}`).toBeDefined();
      expect(o.operationId).toBe(op.id);
      const success = Object.keys(o.responses).filter((s) => s.startsWith('2'));
      expect(success.length, op.id).toBeGreaterThan(0);
      for (const s of success) expect(o.responses[s].content['application/json'].schema, `${op.id} ${s}`).toBeDefined();
      for (const s of ['400', '401', '402', '403']) expect(o.responses[s], `${op.id} ${s}`).toBeDefined();
      if (pathParams(op.path).length > 0) expect(o.responses['404'], `${op.id} 404`).toBeDefined();
      if (op.method === 'PATCH') {
        expect(o.requestBody.content['application/json'].schema, op.id).toBeDefined();
        expect(o.responses['409'], `${op.id} 409`).toBeDefined();
      }
      if (op.method === 'POST' && op.kind === 'create') expect(o.requestBody, op.id).toBeDefined();
    }
    const schemas = doc.components.schemas;
    for (const name of [
      'Skill',
      'SkillSummary',
      'CatalogSkill',
      'Brand',
      'BrandSummary',
      'Persona',
      'Document',
      'ReservedDocument',
      'CampaignPlan',
      'LineItem',
      'LineItemValidation',
      'LineItemReadiness',
      'LineItemExecution',
    ]) {
      expect(schemas[name], name).toBeDefined();
    }
    expect(doc.paths['/context/brands/{slug}/documents'].post.responses['415']).toBeDefined();
    expect(doc.paths['/context/brands/{slug}/documents/{documentId}/finalize'].post.responses['413']).toBeDefined();
  });
});
