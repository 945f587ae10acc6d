// The Mutations API, operation by operation: changes started on an advertiser.
// Each entry is the whole operation: method, path, permission, kind, summary, each 2xx status
// with what it means, the error codes it adds to the common ones, its request and response
// schemas (zod), and its CLI command. This module loads zod: the CLI's fast paths read the
// plain table `npm run gen` writes from it (../generated/operation-table.ts), never this file.
import type { OperationEntry } from './entry.js';
import { createMutationBody, idempotencyHeaders, listMutationsQuery, mutationPageSchema, mutationParams, mutationSchema } from '../schemas/mutations.js';

export const MUTATIONS_OPERATIONS = {
  listMutations: {
    api: 'mutations',
    method: 'GET',
    path: '/mutations',
    permission: 'mutation:read',
    kind: 'list',
    summary: 'List mutation history',
    responses: { 200: "A page of the organization's mutations, newest first." },
    errors: ['invalid_cursor'],
    schemas: { query: listMutationsQuery, response: mutationPageSchema },
    cli: {
      path: ['mutations', 'list'],
      description: "List the organization's history of changes, newest first",
      resource: 'mutation',
      examples: ['adops mutations list --limit 10', 'adops mutations list --state failed --all --output ndjson'],
    },
  },
  createMutation: {
    api: 'mutations',
    method: 'POST',
    path: '/mutations',
    permission: 'mutation:write',
    kind: 'create',
    summary: 'Start a mutation',
    responses: {
      202: 'Accepted: the mutation, `pending`. Poll GET /mutations/{id} until `succeeded` or `failed`. With a reused Idempotency-Key and the same body: the mutation already started, in its current state.',
    },
    errors: ['missing_write_access', 'provider_not_connected', 'advertiser_not_owned', 'invalid_amount', 'idempotency_key_reused'],
    schemas: { headers: idempotencyHeaders, body: createMutationBody, response: mutationSchema },
  },
  getMutation: {
    api: 'mutations',
    method: 'GET',
    path: '/mutations/{id}',
    permission: 'mutation:write',
    kind: 'get',
    summary: 'Read a mutation',
    responses: { 200: 'The mutation in its current state (failed carries the error, succeeded the entity).' },
    errors: ['not_found'],
    schemas: { params: mutationParams, response: mutationSchema },
    cli: {
      path: ['mutations', 'get'],
      description: 'Read a mutation you started; --wait polls until it finishes',
      resource: 'mutation',
      watch: true,
      examples: ['adops mutations get mut_123', 'adops mutations get mut_123 --wait --timeout 120'],
    },
  },
} as const satisfies Record<string, OperationEntry>;
