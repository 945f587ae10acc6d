// Campaign Plans: a service-side plan (not a provider campaign) in one
// currency, amounts in whole units of it. States: draft → approved → archived
// (draft → archived too). Approval freezes the plan and its Line Items.
import { z } from 'zod';
import { deleted, epochMs, isoDate, optionalFields, pageOf, pageQuery, readRevision, revision, slugInput, slugOut } from './shared.js';
import { lineItemSchema } from './line-items.js';

export const PLAN_STATUSES = ['draft', 'approved', 'archived'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

/** An amount as sent: any JSON number; sign and decimals are content (422 invalid_amount). */
export const amountInput = z.number().meta({
  description: 'Whole units of the plan currency (50 means 50.00); > 0, at most as many decimals as the currency has (else 422 invalid_amount).',
  example: 5000,
});

export const currencyInput = z
  .string()
  .regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code, three capital letters')
  .meta({ description: 'ISO 4217 code (an unknown code answers 422 invalid_currency).', example: 'EUR' });

const planHead = {
  slug: slugOut,
  name: z.string().meta({ example: 'Spring sale 2026' }),
  description: z.string(),
  currency: z.string().meta({ example: 'EUR' }),
  budget: z.number().nullable().meta({ description: 'Total budget in whole units of currency; null when not set.' }),
  startDate: isoDate.nullable(),
  endDate: isoDate.nullable(),
  status: z.enum(PLAN_STATUSES).meta({
    description: 'draft: editable. approved: frozen (only executions can be recorded; may be archived). archived: read-only, terminal.',
  }),
  approvedAt: epochMs.nullable(),
  archivedAt: epochMs.nullable(),
  revision,
  createdAt: epochMs,
  updatedAt: epochMs,
};

export const planSummarySchema = z
  .object({ ...planHead, lineItemCount: z.number().int() })
  .meta({ id: 'CampaignPlanSummary', description: 'A Campaign Plan as listed: no Line Items, only their count.' });

export const planSchema = z
  .object({ ...planHead, lineItems: z.array(lineItemSchema).meta({ description: 'Line Items, oldest first.' }) })
  .meta({ id: 'CampaignPlan' });

export const planPageSchema = pageOf(planSummarySchema, 'CampaignPlanPage');
export const listPlansQuery = z.object({
  ...pageQuery,
  status: z.enum(PLAN_STATUSES).optional().meta({ description: 'Only plans in this status.' }),
});

const editable = {
  name: z.string().min(1).max(200),
  description: z.string().max(2000),
  currency: currencyInput,
  budget: amountInput.nullable(),
  startDate: isoDate.nullable(),
  endDate: isoDate.nullable(),
};

export const createPlanBody = z
  .strictObject({ slug: slugInput, ...optionalFields(editable), name: editable.name, currency: editable.currency })
  .meta({ id: 'CreateCampaignPlan' });

export const updatePlanBody = z
  .strictObject({
    revision: readRevision,
    ...optionalFields(editable),
    status: z.literal('archived').optional().meta({ description: 'Archive the plan (from draft or approved); the only change an approved plan accepts.' }),
  })
  .meta({ id: 'UpdateCampaignPlan', description: 'Fields to change; `revision` is required. The slug cannot change.' });

export const approvePlanBody = z
  .strictObject({ revision: readRevision.optional() })
  .meta({ id: 'ApproveCampaignPlan', description: 'Optional: the revision you reviewed; stale answers 409 revision_mismatch.' });

export const planParams = z.object({ slug: z.string().meta({ description: 'Campaign Plan handle.' }) });
export const planDeletedSchema = deleted({ slug: z.string() }, 'CampaignPlanDeleted');

export type CampaignPlan = z.infer<typeof planSchema>;
export type CampaignPlanSummary = z.infer<typeof planSummarySchema>;
export type CreateCampaignPlan = z.infer<typeof createPlanBody>;
export type UpdateCampaignPlan = z.infer<typeof updatePlanBody>;
