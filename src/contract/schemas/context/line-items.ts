// Line Items: rows of a Campaign Plan, addressed by lineItemId through it.
// They hold only what every provider object they can produce has in common.
import { z } from 'zod';
import { ENTITY_PROVIDERS } from '../../ids.js';
import { advertiserIdSchema } from '../common.js';
import { deleted, epochMs, isoDate, optionalFields, readRevision, revision } from './shared.js';

export const BUDGET_TYPES = ['daily', 'lifetime'] as const;
export const EXECUTION_ENTITY_TYPES = ['campaign', 'ad_group', 'ad', 'creative', 'asset_group'] as const;

export const problemSchema = z
  .object({
    code: z.string().meta({
      description:
        'missing_field, advertiser_not_owned, provider_mismatch, currency_mismatch, invalid_dates, dates_outside_plan, budget_over_plan, plan_budget_exceeded',
    }),
    field: z.string().nullable().meta({ description: 'Line Item field concerned, or null.' }),
    message: z.string(),
  })
  .meta({ id: 'LineItemProblem' });

export const validationSchema = z
  .object({
    lineItemId: z.string(),
    valid: z.boolean(),
    problems: z.array(problemSchema),
    checkedAt: epochMs,
  })
  .meta({ id: 'LineItemValidation', description: 'Result of validating a Line Item: what is missing or wrong.' });

export const executionSchema = z
  .object({
    executionId: z.string().meta({ example: 'exe_4kq9w2' }),
    lineItemId: z.string(),
    provider: z.enum(ENTITY_PROVIDERS),
    entityType: z.enum(EXECUTION_ENTITY_TYPES),
    entityId: z.string().meta({ description: "Provider's id of the spawned entity, no prefix." }),
    mutationId: z.string().nullable().meta({ description: 'Mutation that made it, when known.' }),
    recordedAt: epochMs,
  })
  .meta({ id: 'LineItemExecution', description: 'A provider object a Line Item spawned.' });

export const lineItemSchema = z
  .object({
    lineItemId: z.string().meta({ example: 'li_7h2m9x' }),
    planSlug: z.string(),
    name: z.string(),
    provider: z.enum(ENTITY_PROVIDERS).nullable(),
    advertiserId: advertiserIdSchema.nullable(),
    budget: z.number().nullable().meta({ description: 'Whole units of the plan currency.' }),
    budgetType: z.enum(BUDGET_TYPES).nullable(),
    startDate: isoDate.nullable(),
    endDate: isoDate.nullable(),
    objective: z.string().nullable().meta({ description: "Provider's own objective word." }),
    lastValidation: validationSchema.nullable().meta({ description: 'Result of the last validate since the last edit; null when none.' }),
    executions: z.array(executionSchema),
    revision,
    createdAt: epochMs,
    updatedAt: epochMs,
  })
  .meta({ id: 'LineItem' });

const editable = {
  name: z.string().min(1).max(200),
  provider: z.enum(ENTITY_PROVIDERS).nullable(),
  advertiserId: advertiserIdSchema.nullable(),
  budget: z.number().nullable().meta({ description: 'Whole units of the plan currency; > 0 (else 422 invalid_amount).' }),
  budgetType: z.enum(BUDGET_TYPES).nullable(),
  startDate: isoDate.nullable(),
  endDate: isoDate.nullable(),
  objective: z.string().min(1).max(100).nullable(),
};

export const addLineItemBody = z
  .strictObject({ ...optionalFields(editable), name: editable.name })
  .meta({ id: 'AddLineItem', description: 'Only name is needed to add; validate says what else is missing.' });

export const updateLineItemBody = z
  .strictObject({ revision: readRevision, ...optionalFields(editable) })
  .meta({ id: 'UpdateLineItem', description: 'Fields to change; `revision` is required.' });

export const readinessSchema = z
  .object({
    lineItemId: z.string(),
    ready: z.boolean(),
    missing: z.array(
      z.object({
        code: z.string().meta({
          description: 'plan_not_approved, plan_archived, validation_failed, provider_not_connected, missing_write_access',
        }),
        message: z.string(),
        problems: z.array(problemSchema).optional().meta({ description: 'With validation_failed: what validation found.' }),
      }),
    ),
    checkedAt: epochMs,
  })
  .meta({ id: 'LineItemReadiness', description: 'Whether the Line Item can be executed now, and what is missing.' });

export const recordExecutionBody = z
  .strictObject({
    provider: z.enum(ENTITY_PROVIDERS),
    entityType: z.enum(EXECUTION_ENTITY_TYPES),
    entityId: z.string().min(1).max(200),
    mutationId: z.string().min(1).max(200).optional(),
  })
  .meta({ id: 'RecordExecution' });

export const lineItemParams = z.object({
  slug: z.string().meta({ description: 'Campaign Plan handle.' }),
  lineItemId: z.string().meta({ description: 'Line Item id.' }),
});

export const lineItemDeletedSchema = deleted({ planSlug: z.string(), lineItemId: z.string() }, 'LineItemDeleted');

export type LineItem = z.infer<typeof lineItemSchema>;
export type LineItemProblem = z.infer<typeof problemSchema>;
export type LineItemValidation = z.infer<typeof validationSchema>;
export type LineItemReadiness = z.infer<typeof readinessSchema>;
export type LineItemExecution = z.infer<typeof executionSchema>;
export type AddLineItem = z.infer<typeof addLineItemBody>;
export type UpdateLineItem = z.infer<typeof updateLineItemBody>;
export type RecordExecution = z.infer<typeof recordExecutionBody>;
