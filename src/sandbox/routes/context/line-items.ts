// Routes of Line Items (through their plan): add, update, delete, validate,
// readiness, executions.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/context.js';
import { operationRoute } from '../../http/route.js';
import { readinessOf, validateLineItem } from '../../models/context/line-item-checks.js';
import { addLineItem, deleteLineItem, recordExecution, updateLineItem } from '../../models/context/line-items.js';
import { getLineItem, getPlan, toLineItem } from '../../models/context/plan-rows.js';
import { scopeOf } from '../scope.js';

export function registerLineItemRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(
    operationRoute('addLineItem', {
      responses: { 201: 'The Line Item, with its service-minted lineItemId, revision 1.' },
      errors: ['not_found', 'plan_frozen', 'invalid_amount', 'invalid_dates'],
    }),
    (c) => {
      const s = scopeOf(c);
      const plan = getPlan(s, c.req.valid('param').slug);
      return c.json(toLineItem(s, addLineItem(s, plan, c.req.valid('json')), plan), 201);
    },
  );

  app.openapi(
    operationRoute('updateLineItem', {
      responses: { 200: 'The Line Item as written, revision + 1 (its last validation cleared).' },
      errors: ['not_found', 'revision_mismatch', 'plan_frozen', 'invalid_amount', 'invalid_dates'],
    }),
    (c) => {
      const { slug, lineItemId } = c.req.valid('param');
      const s = scopeOf(c);
      const plan = getPlan(s, slug);
      return c.json(toLineItem(s, updateLineItem(s, plan, lineItemId, c.req.valid('json')), plan), 200);
    },
  );

  app.openapi(
    operationRoute('deleteLineItem', {
      responses: { 200: 'Deleted.' },
      errors: ['not_found', 'revision_mismatch', 'plan_frozen'],
    }),
    (c) => {
      const { slug, lineItemId } = c.req.valid('param');
      const s = scopeOf(c);
      deleteLineItem(s, getPlan(s, slug), lineItemId, c.req.valid('query').revision);
      return c.json({ deleted: true as const, planSlug: slug, lineItemId }, 200);
    },
  );

  app.openapi(
    operationRoute('validateLineItem', {
      responses: { 200: 'What is missing or wrong (valid when nothing is); kept on the Line Item until its next edit.' },
      errors: ['not_found'],
    }),
    (c) => {
      const { slug, lineItemId } = c.req.valid('param');
      const s = scopeOf(c);
      const plan = getPlan(s, slug);
      return c.json(validateLineItem(s, plan, getLineItem(s, plan, lineItemId)), 200);
    },
  );

  app.openapi(
    operationRoute('getLineItemReadiness', {
      responses: { 200: 'Whether the Line Item can be executed now, and what is missing.' },
      errors: ['not_found'],
    }),
    (c) => {
      const { slug, lineItemId } = c.req.valid('param');
      const s = scopeOf(c);
      const plan = getPlan(s, slug);
      return c.json(readinessOf(s, plan, getLineItem(s, plan, lineItemId)), 200);
    },
  );

  app.openapi(
    operationRoute('recordLineItemExecution', {
      responses: {
        201: 'Recorded.',
        200: 'The same object was recorded before: that record, unchanged.',
      },
      errors: ['not_found', 'plan_not_approved', 'plan_frozen', 'provider_mismatch'],
    }),
    (c) => {
      const { slug, lineItemId } = c.req.valid('param');
      const s = scopeOf(c);
      const { execution, created } = recordExecution(s, getPlan(s, slug), lineItemId, c.req.valid('json'));
      return created ? c.json(execution, 201) : c.json(execution, 200);
    },
  );
}
