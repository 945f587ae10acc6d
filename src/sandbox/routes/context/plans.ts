// Routes of Campaign Plans.
import type { OpenAPIHono } from '@hono/zod-openapi';
import {
  approvePlanBody,
  createPlanBody,
  deleteQuery,
  listPlansQuery,
  planDeletedSchema,
  planPageSchema,
  planParams,
  planSchema,
  updatePlanBody,
} from '../../../contract/schemas/context.js';
import type { AppEnv } from '../../http/context.js';
import { operationRoute } from '../../http/route.js';
import { getPlan, toPlan, listPlans } from '../../models/context/plan-rows.js';
import { approvePlan, createPlan, deletePlan, updatePlan } from '../../models/context/plans.js';
import { scopeOf } from '../scope.js';

const planJson = (description: string) => ({ description, schema: planSchema });

export function registerPlanRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(
    operationRoute('listCampaignPlans', {
      request: { query: listPlansQuery },
      responses: { 200: { description: 'A page of Campaign Plans, newest first (Line Items counted, not listed).', schema: planPageSchema } },
      errors: ['invalid_cursor'],
    }),
    (c) => c.json(listPlans(scopeOf(c), c.req.valid('query')), 200),
  );

  app.openapi(
    operationRoute('createCampaignPlan', {
      request: { body: createPlanBody },
      responses: { 201: planJson('The plan, draft, revision 1.') },
      errors: ['invalid_slug', 'slug_conflict', 'invalid_amount', 'invalid_currency', 'invalid_dates'],
    }),
    (c) => {
      const s = scopeOf(c);
      return c.json(toPlan(s, createPlan(s, c.req.valid('json'))), 201);
    },
  );

  app.openapi(
    operationRoute('getCampaignPlan', {
      request: { params: planParams },
      responses: { 200: planJson('The plan with its Line Items and what they spawned.') },
      errors: ['not_found'],
    }),
    (c) => {
      const s = scopeOf(c);
      return c.json(toPlan(s, getPlan(s, c.req.valid('param').slug)), 200);
    },
  );

  app.openapi(
    operationRoute('updateCampaignPlan', {
      request: { params: planParams, body: updatePlanBody },
      responses: { 200: planJson('The plan as written, revision + 1.') },
      errors: ['not_found', 'revision_mismatch', 'plan_frozen', 'invalid_amount', 'invalid_currency', 'invalid_dates'],
    }),
    (c) => {
      const s = scopeOf(c);
      return c.json(toPlan(s, updatePlan(s, c.req.valid('param').slug, c.req.valid('json'))), 200);
    },
  );

  app.openapi(
    operationRoute('deleteCampaignPlan', {
      request: { params: planParams, query: deleteQuery },
      responses: { 200: { description: 'Deleted with its Line Items.', schema: planDeletedSchema } },
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
      request: { params: planParams, body: approvePlanBody, bodyRequired: false },
      responses: { 200: planJson('The plan, approved (and frozen).') },
      errors: ['not_found', 'revision_mismatch', 'plan_frozen', 'plan_invalid'],
    }),
    (c) => {
      const s = scopeOf(c);
      const body = c.req.valid('json') ?? {};
      return c.json(toPlan(s, approvePlan(s, c.req.valid('param').slug, body.revision)), 200);
    },
  );
}
