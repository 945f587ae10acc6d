// Handlers of Line Items (through their plan): add, update, delete, validate,
// readiness, executions.
import type { HandlerMap } from '../../http/handler.js';
import { readinessOf, validateLineItem } from '../../models/context/line-item-checks.js';
import { addLineItem, deleteLineItem, recordExecution, updateLineItem } from '../../models/context/line-items.js';
import { getLineItem, getPlan, toLineItem } from '../../models/context/plan-rows.js';
import { scopeOf } from '../scope.js';

export const LINE_ITEM_HANDLERS = {
  addLineItem: (c) => {
    const s = scopeOf(c);
    const plan = getPlan(s, c.req.valid('param').slug);
    return c.json(toLineItem(s, addLineItem(s, plan, c.req.valid('json')), plan), 201);
  },

  updateLineItem: (c) => {
    const { slug, lineItemId } = c.req.valid('param');
    const s = scopeOf(c);
    const plan = getPlan(s, slug);
    return c.json(toLineItem(s, updateLineItem(s, plan, lineItemId, c.req.valid('json')), plan), 200);
  },

  deleteLineItem: (c) => {
    const { slug, lineItemId } = c.req.valid('param');
    const s = scopeOf(c);
    deleteLineItem(s, getPlan(s, slug), lineItemId, c.req.valid('query').revision);
    return c.json({ deleted: true as const, planSlug: slug, lineItemId }, 200);
  },

  validateLineItem: (c) => {
    const { slug, lineItemId } = c.req.valid('param');
    const s = scopeOf(c);
    const plan = getPlan(s, slug);
    return c.json(validateLineItem(s, plan, getLineItem(s, plan, lineItemId)), 200);
  },

  getLineItemReadiness: (c) => {
    const { slug, lineItemId } = c.req.valid('param');
    const s = scopeOf(c);
    const plan = getPlan(s, slug);
    return c.json(readinessOf(s, plan, getLineItem(s, plan, lineItemId)), 200);
  },

  recordLineItemExecution: (c) => {
    const { slug, lineItemId } = c.req.valid('param');
    const s = scopeOf(c);
    const { execution, created } = recordExecution(s, getPlan(s, slug), lineItemId, c.req.valid('json'));
    return created ? c.json(execution, 201) : c.json(execution, 200);
  },
} satisfies HandlerMap<'addLineItem' | 'updateLineItem' | 'deleteLineItem' | 'validateLineItem' | 'getLineItemReadiness' | 'recordLineItemExecution'>;
