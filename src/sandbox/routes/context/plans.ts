// Handlers of Campaign Plans.
import type { HandlerMap } from '../../http/handler.js';
import { getPlan, toPlan, listPlans } from '../../models/context/plan-rows.js';
import { approvePlan, createPlan, deletePlan, updatePlan } from '../../models/context/plans.js';
import { scopeOf } from '../scope.js';

export const PLAN_HANDLERS = {
  listCampaignPlans: (c) => c.json(listPlans(scopeOf(c), c.req.valid('query')), 200),

  createCampaignPlan: (c) => {
    const s = scopeOf(c);
    return c.json(toPlan(s, createPlan(s, c.req.valid('json'))), 201);
  },

  getCampaignPlan: (c) => {
    const s = scopeOf(c);
    return c.json(toPlan(s, getPlan(s, c.req.valid('param').slug)), 200);
  },

  updateCampaignPlan: (c) => {
    const s = scopeOf(c);
    return c.json(toPlan(s, updatePlan(s, c.req.valid('param').slug, c.req.valid('json'))), 200);
  },

  deleteCampaignPlan: (c) => {
    const { slug } = c.req.valid('param');
    deletePlan(scopeOf(c), slug, c.req.valid('query').revision);
    return c.json({ deleted: true as const, slug }, 200);
  },

  approveCampaignPlan: (c) => {
    const s = scopeOf(c);
    const body = c.req.valid('json') ?? {};
    return c.json(toPlan(s, approvePlan(s, c.req.valid('param').slug, body.revision)), 200);
  },
} satisfies HandlerMap<'listCampaignPlans' | 'createCampaignPlan' | 'getCampaignPlan' | 'updateCampaignPlan' | 'deleteCampaignPlan' | 'approveCampaignPlan'>;
