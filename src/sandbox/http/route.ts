// Every operation's route config comes from its operation module
// (src/contract/operations/<api>.ts, schemas included): method, path,
// operationId, permission, the request schemas, each 2xx status with its
// description and body schema, and the error codes. A handler states nothing
// of that; the sandbox registers every route in one loop (routes/handlers.ts).
//
// Middleware order per the spec's order of checks: jsonBody (not-JSON 400 comes
// first, and the body is read within the limits of http/limits.ts: 413 / 408) →
// authorize (401/402/403) → @hono/zod-openapi's validators (400).
import { createRoute } from '@hono/zod-openapi';
import type { RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { ERROR_CODES } from '../../contract/errors.js';
import type { KnownErrorCode } from '../../contract/errors.js';
import { OPERATION_SCHEMAS } from '../../contract/operation-schemas.js';
import type { OperationSchemas } from '../../contract/operation-schemas.js';
import { OPERATION_TABLE } from '../../contract/operations.js';
import type { OperationDef, OperationId } from '../../contract/operations.js';
import { errorBodySchema } from '../../contract/schemas/common.js';
import { authorize } from './auth.js';
import type { AppEnv } from './context.js';
import { jsonBody } from './json-body.js';
import { schemaBeforeKey } from './generation.js';

type ZodObjectLike = z.ZodObject | z.ZodPipe;
type OpenApiRequest = NonNullable<RouteConfig['request']>;
type OpenApiResponse = RouteConfig['responses'][string];

/** Params, query and headers are objects (or objects piped through a transform) in OpenAPI's sense. */
function objectLike(schema: z.ZodType, part: string, id: string): ZodObjectLike {
  if (schema instanceof z.ZodObject || schema instanceof z.ZodPipe) return schema;
  throw new Error(`${id}: the ${part} schema must be a zod object`);
}

/** What the answers of a route mean: each 2xx status, and the failures it adds (an operation module's entry says it). */
export interface RouteAnswers<R extends Readonly<Record<number, string>>> {
  /** Each 2xx status with what it means; its body is the operation's `response` schema. */
  responses: R;
  /** Codes this operation may send besides the common ones (400, 401, 402, 403). */
  errors?: readonly KnownErrorCode[];
}

type NoPart = Record<never, never>;
type Part<S, K extends 'params' | 'query' | 'headers'> = S extends { [P in K]: infer T extends ZodObjectLike } ? { [P in K]: T } : NoPart;
type JsonContent<T> = { content: { 'application/json': { schema: T } } };

/** The request part of the route config, as precise as the schemas, so handlers read `c.req.valid(…)` typed. */
type BuiltRequest<S> = Part<S, 'params'> &
  Part<S, 'query'> &
  Part<S, 'headers'> &
  (S extends { body: infer B extends z.ZodType } ? { body: JsonContent<B> & { required: boolean } } : NoPart);

/** Each 2xx status with the operation's response schema, so `c.json(x, status)` is checked against it. */
type BuiltResponses<S, R> = {
  [K in keyof R]: S extends { response: infer T extends z.ZodType } ? { description: string } & JsonContent<T> : { description: string };
};

export type OperationRouteConfig<S, R> = {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  request: BuiltRequest<S>;
  responses: BuiltResponses<S, R>;
  middleware: MiddlewareHandler<AppEnv>[];
  security: Array<Record<string, string[]>>;
};

/** Codes every authenticated operation can send, in the order of checks. */
const COMMON_ERRORS: readonly KnownErrorCode[] = ['invalid_request', 'unauthorized', 'organization_unentitled', 'forbidden'];

const LOWERCASE_METHOD = { GET: 'get', POST: 'post', PATCH: 'patch', DELETE: 'delete' } as const;

export const BEARER_SCHEME = 'bearerAuth';

/** The route config of an operation, as its module declares it. */
export type OperationRoute<Id extends OperationId> = OperationRouteConfig<(typeof OPERATION_SCHEMAS)[Id], (typeof OPERATION_TABLE)[Id]['responses']>;

/** The route of a table operation: its entry and its schemas, nothing else. */
export function operationRoute<Id extends OperationId>(id: Id): OperationRoute<Id> {
  const op: (typeof OPERATION_TABLE)[Id] = OPERATION_TABLE[id];
  return routeConfig<(typeof OPERATION_SCHEMAS)[Id], (typeof OPERATION_TABLE)[Id]['responses']>({ id, ...op }, OPERATION_SCHEMAS[id], {
    responses: op.responses,
    errors: op.errors,
  });
}

/**
 * An operation's route config from its table entry, the schemas and the answers
 * given. The sandbox's routes all go through operationRoute; the platform tests
 * mount probes under real operation entries with schemas of their own.
 */
export function routeConfig<S extends OperationSchemas, const R extends Readonly<Record<number, string>>>(
  op: OperationDef,
  schemas: S,
  spec: RouteAnswers<R>,
): OperationRouteConfig<S, R>;
// The config built below is what BuiltRequest and BuiltResponses describe, part by part; TypeScript
// cannot follow a loop over statuses into a mapped type, so the signature above states it once.
export function routeConfig(op: OperationDef, schemas: OperationSchemas, spec: RouteAnswers<Readonly<Record<number, string>>>): RouteConfig {
  const request: OpenApiRequest = {};
  if (schemas.params) request.params = objectLike(schemas.params, 'params', op.id);
  if (schemas.query) request.query = objectLike(schemas.query, 'query', op.id);
  if (schemas.headers) request.headers = objectLike(schemas.headers, 'headers', op.id);
  if (schemas.body) request.body = { content: { 'application/json': { schema: schemas.body } }, required: schemas.bodyOptional !== true };

  const responses: Record<string, OpenApiResponse> = {};
  for (const [status, description] of Object.entries(spec.responses)) {
    responses[status] = schemas.response ? { description, content: { 'application/json': { schema: schemas.response } } } : { description };
  }
  // Failures grouped by status, each documented with the common error body.
  const byStatus = new Map<number, string[]>();
  for (const code of new Set([...COMMON_ERRORS, ...(spec.errors ?? [])])) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = {
      description: `Failure: ${codes.map((c) => `\`${c}\``).join(', ')}`,
      content: { 'application/json': { schema: schemas.error ?? errorBodySchema } },
    };
  }

  // Only operations that take a body need the not-JSON check before the key.
  // schemaBeforeKey does nothing unless the sandbox serves the behaviour from before 2026-09-24.
  const key = [schemaBeforeKey(op.api, schemas), authorize(op.permission)];
  const config = {
    method: LOWERCASE_METHOD[op.method],
    path: op.path,
    operationId: op.id,
    tags: [op.api],
    summary: op.summary,
    description: `Requires the permission \`${op.permission}\`.${op.live ? ' Live read: asks the provider now and counts against its rate limits.' : ''}`,
    security: [{ [BEARER_SCHEME]: [] }],
    request,
    responses,
    middleware: schemas.body ? [jsonBody, ...key] : key,
  };
  return createRoute(config);
}
