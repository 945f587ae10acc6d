// Request validation failures as the spec's 400: the issues are written by
// models/issues.ts.
import type { Context } from 'hono';
import type { AppEnv } from './context.js';
import type { z } from 'zod';
import type { IssueLocation } from '../../contract/errors.js';
import { invalidRequest } from '../models/errors.js';
import { cappedIssues } from '../models/issues.js';
import { DEFAULT_HTTP_LIMITS } from './limits.js';
import type { HttpLimits } from './limits.js';

const TARGET_TO_LOCATION: Record<string, IssueLocation> = {
  json: 'body',
  form: 'body',
  query: 'query',
  param: 'params',
  header: 'headers',
  cookie: 'cookie',
};

/**
 * The defaultHook of every OpenAPIHono in the sandbox: a failed zod validator
 * throws 400 invalid_request; a success falls through to the handler.
 */
export function validationHook(
  result: { success: true; data: unknown; target: string } | { success: false; error: z.ZodError; data: unknown; target: string },
  c: Context<AppEnv>,
): undefined {
  if (result.success) return undefined;
  const location = TARGET_TO_LOCATION[result.target] ?? 'body';
  // (Set on every request by the app; a bare OpenAPIHono, as some tests mount, has none.)
  const limits: HttpLimits | undefined = c.get('limits');
  const max = limits?.maxIssues ?? DEFAULT_HTTP_LIMITS.maxIssues;
  const { issues, total } = cappedIssues(result.error, location, result.data, max);
  throw invalidRequest(issues, undefined, total);
}
