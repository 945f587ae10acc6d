// Routes of Line Items (through their plan): add, update, delete, validate,
// readiness, executions.
import type { OpenAPIHono } from '@hono/zod-openapi';
import {
  addLineItemBody,
  deleteQuery,
  executionSchema,
  lineItemDeletedSchema,
  lineItemParams,
  lineItemSchema,
  planParams,
  readinessSchema,
  recordExecutionBody,
  updateLineItemBody,
  validationSchema,
} from '../../../contract/schemas/context.js';
import type { AppEnv } from '../../http/context.js';
import { operationRoute } from '../../http/route.js';
import { readinessOf, validateLineItem } from '../../models/context/line-item-checks.js';
import { addLineItem, deleteLineItem, recordExecution, updateLineItem } from '../../models/context/line-items.js';
import { getLineItem, getPlan, toLineItem } from '../../models/context/plan-rows.js';
import { scopeOf } from '../scope.js';

const lineItemJson = (description: string) => ({ description, schema: lineItemSchema });

export function registerLineItemRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(
    operationRoute('addLineItem', {
      request: { params: planParams, body: addLineItemBody },
      responses: { 201: lineItemJson('The Line Item, with its service-minted lineItemId, revision 1.') },
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
      request: { params: lineItemParams, body: updateLineItemBody },
      responses: { 200: lineItemJson('The Line Item as written, revision + 1 (its last validation cleared).') },
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
      request: { params: lineItemParams, query: deleteQuery },
      responses: { 200: { description: 'Deleted.', schema: lineItemDeletedSchema } },
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
      request: { params: lineItemParams },
      responses: { 200: { description: 'What is missing or wrong (valid when nothing is); kept on the Line Item until its next edit.', schema: validationSchema } },
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
      request: { params: lineItemParams },
      responses: { 200: { description: 'Whether the Line Item can be executed now, and what is missing.', schema: readinessSchema } },
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
      request: { params: lineItemParams, body: recordExecutionBody },
      responses: {
        201: { description: 'Recorded.', schema: executionSchema },
        200: { description: 'The same object was recorded before: that record, unchanged.', schema: executionSchema },
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
