// What an operation entry's `schemas` hold (./entry.ts). Type-only.
import type { z } from 'zod';

export interface OperationSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  headers?: z.ZodType;
  body?: z.ZodType;
  /** A body may be omitted altogether (default: required when a body schema is given). */
  bodyOptional?: boolean;
  /** The 2xx answer's body (the client does not validate it: the real service may send more). */
  response?: z.ZodType;
  /** The failure body, where this operation's codes add more than every operation's do (default: errorBodySchema). */
  error?: z.ZodType;
}
