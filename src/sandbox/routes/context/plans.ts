// Routes of Campaign Plans.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/context.js';
import { operationRoute } from '../../http/route.js';
import { getPlan, toPlan, listPlans } from '../../models/context/plan-rows.js';
import { approvePlan, createPlan, deletePlan, updatePlan } from '../../models/context/plans.js';
import { scopeOf } from '../scope.js';

export function registerPlanRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(
    operationRoute('listCampaignPlans', {
      responses: { 200: 'A page of Campaign Plans, newest first (Line Items counted, not listed).' },
      errors: ['invalid_cursor'],
    }),
    (c) => c.json(listPlans(scopeOf(c), c.req.valid('query')), 200),
  );

  app.openapi(
    operationRoute('createCampaignPlan', {
      responses: { 201: 'The plan, draft, revision 1.' },
      errors: ['invalid_slug', 'slug_conflict', 'invalid_amount', 'invalid_currency', 'invalid_dates'],
    }),
    (c) => {
      const s = scopeOf(c);
      return c.json(toPlan(s, createPlan(s, c.req.valid('json'))), 201);
    },
  );

  app.openapi(
    operationRoute('getCampaignPlan', {
      responses: { 200: 'The plan with its Line Items and what they spawned.' },
      errors: ['not_found'],
    }),
    (c) => {
      const s = scopeOf(c);
      return c.json(toPlan(s, getPlan(s, c.req.valid('param').slug)), 200);
    },
  );

  app.openapi(
    operationRoute('updateCampaignPlan', {
      responses: { 200: 'The plan as written, revision + 1.' },
      errors: ['not_found', 'revision_mismatch', 'plan_frozen', 'invalid_amount', 'invalid_currency', 'invalid_dates'],
    }),
    (c) => {
      const s = scopeOf(c);
      return c.json(toPlan(s, updatePlan(s, c.req.valid('param').slug, c.req.valid('json'))), 200);
    },
  );

  app.openapi(
    operationRoute('deleteCampaignPlan', {
      responses: { 200: 'Deleted with its Line Items.' },
      errors: ['not_found', 'revision_mismatch', 'plan_frozen'],
    }),
    (c) => {
      const { slug } = c.req.valid('param');
      deletePlan(scopeOf(c), slug, c.req.valid('query').revision);
      return c.json({ deleted: true as const, slug }, 200);
    },
  );

  app.openapi(
    operationRoute('approveCampaignPlan', {
      responses: { 200: 'The plan, approved (and frozen).' },
      errors: ['not_found', 'revision_mismatch', 'plan_frozen', 'plan_invalid'],
    }),
    (c) => {
      const s = scopeOf(c);
      const body = c.req.valid('json') ?? {};
      return c.json(toPlan(s, approvePlan(s, c.req.valid('param').slug, body.revision)), 200);
    },
  );
}
