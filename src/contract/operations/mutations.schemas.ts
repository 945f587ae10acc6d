// The Mutations API's request and response schemas, keyed by the ids of ./mutations.ts:
// what each operation accepts and answers. Kept apart from the plain entries so
// the CLI's fast paths, which read those, never load zod.
import type { OperationSchemas } from './schemas-shape.js';
import type { MUTATIONS_OPERATIONS } from './mutations.js';
import { createMutationBody, idempotencyHeaders, listMutationsQuery, mutationPageSchema, mutationParams, mutationSchema } from '../schemas/mutations.js';

/** Exhaustive: an operation of ./mutations.ts missing here, or an id it lacks, is a compile error. */
export const MUTATIONS_SCHEMAS = {
  listMutations: { query: listMutationsQuery, response: mutationPageSchema },
  createMutation: { headers: idempotencyHeaders, body: createMutationBody, response: mutationSchema },
  getMutation: { params: mutationParams, response: mutationSchema },
} as const satisfies { readonly [K in keyof typeof MUTATIONS_OPERATIONS]: OperationSchemas };
