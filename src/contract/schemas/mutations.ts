// Shapes of the Mutations API (the spec leaves them open; the choices are in
// docs/decisions.md). A mutation request names one advertiser,
// one target entity and one action; the action decides which fields come with it.
import { z } from 'zod';
import { ENTITY_STATUSES } from '../ids.js';
import { advertiserIdSchema, errorBodySchema, pageQueryShape, pageSchema } from './common.js';

export const MUTATION_STATES = ['pending', 'running', 'succeeded', 'failed'] as const;
export type MutationState = (typeof MUTATION_STATES)[number];

export const MUTATION_TARGET_TYPES = ['campaign', 'ad_group'] as const;

export const mutationTargetSchema = z
  .strictObject({
    type: z.enum(MUTATION_TARGET_TYPES),
    id: z.string().min(1).max(200).meta({ description: "Bare provider id of the campaign or ad group (as Observe's `id`).", example: '120210000000001' }),
  })
  .meta({ id: 'MutationTarget' });

const amount = (what: string) =>
  z.number().meta({
    description: `${what} in whole units of the advertiser's currency (50 means 50.00). Not positive, or more decimals than the currency has: 422 invalid_amount.`,
    example: 50,
  });

export const budgetChangeSchema = z
  .strictObject({
    amount: amount('Budget'),
    type: z.enum(['daily', 'lifetime']).optional().meta({ description: 'Omitted: keep the current budget type.' }),
  })
  .meta({ id: 'BudgetChange' });

const base = { advertiserId: advertiserIdSchema, target: mutationTargetSchema };
const simple = (action: 'pause' | 'activate' | 'delete' | 'archive', status: string) =>
  z.strictObject({ ...base, action: z.literal(action) }).meta({ description: `Set the status to ${status}.` });

export const createMutationBody = z
  .discriminatedUnion('action', [
    simple('pause', 'PAUSED'),
    simple('activate', 'ACTIVE'),
    simple('delete', 'DELETED'),
    simple('archive', 'ARCHIVED'),
    z.strictObject({ ...base, action: z.literal('rename'), name: z.string().min(1).max(400) }).meta({ description: 'Rename the entity.' }),
    z
      .strictObject({ ...base, action: z.literal('set_budget'), budget: budgetChangeSchema })
      .meta({ description: 'Set the budget amount and, optionally, its type.' }),
    z
      .strictObject({
        ...base,
        action: z.literal('set_bid'),
        bidStrategy: z.string().min(1).max(100).optional().meta({ description: "Provider's bid strategy word, e.g. LOWEST_COST_WITH_BID_CAP." }),
        bidAmount: amount('Bid cap or cost cap').optional(),
      })
      .refine((b) => b.bidStrategy !== undefined || b.bidAmount !== undefined, { message: 'needs bidStrategy or bidAmount', path: ['bidStrategy'] })
      // The refine above, in JSON Schema words: at least one of the two.
      .meta({
        description: 'Set the bid strategy and/or the bid amount (at least one of them).',
        anyOf: [{ required: ['bidStrategy'] }, { required: ['bidAmount'] }],
      }),
  ])
  .meta({ id: 'CreateMutation' });
export type CreateMutation = z.infer<typeof createMutationBody>;

/** The actions, as the body's variants name them (one list: src/contract/mutation-actions.ts is keyed by it). */
const mutationActions = createMutationBody.options.map((variant) => variant.shape.action.value);

/** What the mutation writes at the provider, in the service's own words and units. */
export const mutationChangesSchema = z
  .object({
    status: z.enum(ENTITY_STATUSES).optional(),
    name: z.string().optional(),
    budget: budgetChangeSchema.optional(),
    bidStrategy: z.string().optional(),
    bidAmount: z.number().optional(),
  })
  .meta({ id: 'MutationChanges' });

const epochMs = z.number().int().meta({ description: 'Epoch milliseconds.' });

export const mutationSchema = z
  .object({
    id: z.string().meta({ example: 'mut_3f9a0c1d2e4b5a6978' }),
    advertiserId: advertiserIdSchema.meta({ description: 'The advertiser changed; starts with acc_.' }),
    provider: z.string().meta({ description: 'Provider token of the advertiser.' }),
    target: mutationTargetSchema,
    action: z.enum(mutationActions),
    changes: mutationChangesSchema,
    state: z.enum(MUTATION_STATES).meta({ description: 'pending → running → succeeded | failed. Only succeeded and failed are final.' }),
    error: errorBodySchema
      .nullable()
      .meta({ description: "When failed: the failure, e.g. 502 provider_error with provider and the provider's platformError." }),
    entity: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: 'When succeeded: the entity as the provider holds it after the change (live row).' }),
    createdAt: epochMs,
    updatedAt: epochMs,
    startedAt: epochMs.nullable().meta({ description: 'When the worker began applying it.' }),
    completedAt: epochMs.nullable().meta({ description: 'When it reached succeeded or failed.' }),
  })
  .meta({ id: 'Mutation' });
export type Mutation = z.infer<typeof mutationSchema>;

export const mutationPageSchema = pageSchema(mutationSchema).meta({ id: 'MutationPage' });

export const listMutationsQuery = z.object({
  ...pageQueryShape,
  advertiserId: advertiserIdSchema.optional().meta({ description: "Only this advertiser's mutations." }),
  state: z.enum(MUTATION_STATES).optional().describe('Only mutations in this state.'),
});

export const mutationParams = z.object({ id: z.string().min(1).max(200).describe('Mutation id, as POST /mutations answered it.') });

export const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/, { message: 'must be 1 to 255 visible ASCII characters' })
    .optional()
    .meta({
      description:
        'Sandbox behaviour (the real service may not offer it): the same key with the same body answers the mutation already started; with another body, 422 idempotency_key_reused. Keys are per organization and kept 24 hours.',
    }),
});
