// The service as it was before 2026-09-24 (spec, Errors: "Behavior before
// 2026-09-24"), served with `adops sandbox serve --as-of 2026-09-23`:
// - a schema mismatch answered 422 with a framework-shaped body: `type` of
//   `validation`, no `error` field;
// - a nonexistent path answered plain text `NOT_FOUND` with status 404;
// - in Observe, Context and Assets the schema was checked before the key.
// Today's behaviour is the default. What the spec does not show (the rest of
// the framework body, which parts count as schema) is in docs/decisions.md.
import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { Issue, IssueLocation } from '../../contract/errors.js';
import type { ApiName } from '../../contract/operations.js';
import type { AppEnv } from './context.js';
import { invalidRequest } from '../models/errors.js';
import type { ServiceError } from '../models/errors.js';
import { cappedIssues } from '../models/issues.js';

/** The first day of today's behaviour. */
export const BEHAVIOUR_CHANGED_ON = '2026-09-24';

/** `--as-of YYYY-MM-DD`: true when that day is before the change. A malformed date throws. */
export function servesOldBehaviour(asOf: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(asOf);
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
  if (!d || d.toISOString().slice(0, 10) !== asOf) throw new Error(`--as-of ${asOf}: not a calendar date YYYY-MM-DD`);
  return asOf < BEHAVIOUR_CHANGED_ON;
}

export function isOld(c: Context<AppEnv>): boolean {
  return c.get('sandbox')?.settings.before20260924 === true;
}

/** Today's 400 invalid_request as the old framework answered it: 422, `type: validation`, the same issues as `errors`. */
export function oldValidationBody(err: ServiceError): Record<string, unknown> {
  const issues: unknown[] = Array.isArray(err.extra.issues) ? err.extra.issues : [];
  return { type: 'validation', message: 'Request validation failed', errors: issues };
}

/** The old plain-text answer to a path no operation serves. */
export function oldNotFound(c: Context): Response {
  return c.text('NOT_FOUND', 404);
}

type Schema = z.ZodType | undefined;

/** The APIs that checked the schema before the key (Mutations never did). */
const SCHEMA_FIRST: readonly ApiName[] = ['observe', 'context', 'assets'];

/**
 * Before the key middleware of an operation: on an old-behaviour sandbox, in
 * Observe, Context and Assets, check params, query and body first, as the
 * validators later check them (the same zod schemas, the same issues).
 */
export function schemaBeforeKey(api: ApiName, req: { params?: Schema; query?: Schema; body?: Schema }): MiddlewareHandler<AppEnv> {
  const schemaFirst = SCHEMA_FIRST.includes(api);
  const checkFirst: MiddlewareHandler<AppEnv> = async (c, next) => {
    const issues: Issue[] = [];
    const check = (schema: Schema, value: unknown, where: IssueLocation) => {
      const r = schema?.safeParse(value);
      if (r && !r.success) issues.push(...cappedIssues(r.error, where, value, 100).issues);
    };
    check(req.params, c.req.param(), 'params');
    const query = Object.fromEntries(Object.entries(c.req.queries()).map(([k, v]) => [k, v.length === 1 ? v[0] : v]));
    check(req.query, query, 'query');
    if (req.body) {
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        body = undefined;
      }
      check(req.body, body, 'body');
    }
    if (issues.length) throw invalidRequest(issues);
    return next();
  };
  // Today's behaviour (nearly every request): no async layer of its own (#27).
  return (c, next) => (schemaFirst && isOld(c) ? checkFirst(c, next) : next());
}
