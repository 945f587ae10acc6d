// Every operation's route config comes from one call, so method, path,
// operationId, permission and the documented failures always agree with the
// operation table (src/contract/operations.ts):
//
//   const route = operationRoute('listCampaigns', {
//     request: { query: listCampaignsQuery },
//     responses: { 200: { description: 'A page of campaigns', schema: pageSchema(campaignRow) } },
//     errors: ['invalid_cursor'],
//   });
//   app.openapi(route, (c) => c.json(page, 200));
//
// Middleware order per the spec's order of checks: jsonBody (not-JSON 400 comes
// first, and the body is read within the limits of http/limits.ts: 413 / 408) →
// authorize (401/402/403) → @hono/zod-openapi's validators (400).
import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { ERROR_CODES } from '../../contract/errors.js';
import type { KnownErrorCode } from '../../contract/errors.js';
import { operation } from '../../contract/operations.js';
import type { HttpMethod } from '../../contract/operations.js';
import { errorBodySchema } from '../../contract/schemas/common.js';
import { authorize } from './auth.js';
import type { AppEnv } from './context.js';
import { jsonBody } from './json-body.js';
import { schemaBeforeKey } from './generation.js';

type ZodObjectLike = z.ZodObject | z.ZodPipe;

export interface OperationRequestSpec<
  P extends ZodObjectLike | undefined,
  Q extends ZodObjectLike | undefined,
  H extends ZodObjectLike | undefined,
  B extends z.ZodType | undefined,
> {
  params?: P;
  query?: Q;
  headers?: H;
  body?: B;
  /** Default true when a body schema is given. */
  bodyRequired?: boolean;
}

export interface OperationResponseSpec {
  description: string;
  schema?: z.ZodType;
}

export interface OperationSpec<P, Q, H, B, R> {
  request?: OperationRequestSpec<
    P extends ZodObjectLike ? P : undefined,
    Q extends ZodObjectLike ? Q : undefined,
    H extends ZodObjectLike ? H : undefined,
    B extends z.ZodType ? B : undefined
  >;
  responses: R;
  /** Codes this operation may send besides the common ones (400, 401, 402, 403). */
  errors?: readonly KnownErrorCode[];
}

type BuiltRequest<P, Q, H, B> = (P extends ZodObjectLike ? { params: P } : {}) &
  (Q extends ZodObjectLike ? { query: Q } : {}) &
  (H extends ZodObjectLike ? { headers: H } : {}) &
  (B extends z.ZodType ? { body: { content: { 'application/json': { schema: B } }; required: boolean } } : {});

type BuiltResponses<R> = {
  [K in keyof R]: R[K] extends { schema: infer S extends z.ZodType }
    ? { description: string; content: { 'application/json': { schema: S } } }
    : { description: string };
};

export type OperationRouteConfig<P, Q, H, B, R> = {
  method: Lowercase<HttpMethod>;
  path: string;
  operationId: string;
  tags: string[];
  summary: string;
  request: BuiltRequest<P, Q, H, B>;
  responses: BuiltResponses<R>;
  middleware: MiddlewareHandler<AppEnv>[];
  security: Array<Record<string, string[]>>;
};

/** Codes every authenticated operation can send, in the order of checks. */
const COMMON_ERRORS: readonly KnownErrorCode[] = ['invalid_request', 'unauthorized', 'organization_unentitled', 'forbidden'];

export const BEARER_SCHEME = 'bearerAuth';

export function operationRoute<
  P extends ZodObjectLike | undefined = undefined,
  Q extends ZodObjectLike | undefined = undefined,
  H extends ZodObjectLike | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends Record<number, OperationResponseSpec> = Record<number, OperationResponseSpec>,
>(id: string, spec: OperationSpec<P, Q, H, B, R>): OperationRouteConfig<P, Q, H, B, R> {
  const op = operation(id);
  const req = spec.request ?? {};
  const request: Record<string, unknown> = {};
  if (req.params) request.params = req.params;
  if (req.query) request.query = req.query;
  if (req.headers) request.headers = req.headers;
  if (req.body) {
    request.body = { content: { 'application/json': { schema: req.body } }, required: req.bodyRequired ?? true };
  }

  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(spec.responses as Record<string, OperationResponseSpec>)) {
    responses[status] = r.schema
      ? { description: r.description, content: { 'application/json': { schema: r.schema } } }
      : { description: r.description };
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
      content: { 'application/json': { schema: errorBodySchema } },
    };
  }

  // Only operations that take a body need the not-JSON check before the key.
  // schemaBeforeKey does nothing unless the sandbox serves the behaviour from before 2026-09-24.
  const key = [schemaBeforeKey(op.api, req), authorize(op.permission)];
  const middleware: MiddlewareHandler<AppEnv>[] = req.body ? [jsonBody, ...key] : key;

  const config = createRoute({
    method: op.method.toLowerCase() as Lowercase<HttpMethod>,
    path: op.path,
    operationId: op.id,
    tags: [op.api],
    summary: op.summary,
    description: `Requires the permission \`${op.permission}\`.${op.live ? ' Live read: asks the provider now and counts against its rate limits.' : ''}`,
    security: [{ [BEARER_SCHEME]: [] }],
    request: request as never,
    responses: responses as never,
    middleware: middleware as never,
  });
  return config;
}
