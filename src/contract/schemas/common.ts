// Shapes shared by every API: the error body, the issue entry, the page
// envelope and the paging query. Plain zod (no Hono import) so the client can
// validate answers with the same schemas the sandbox documents.
import { z } from 'zod';
import { ISSUE_LOCATIONS } from '../errors.js';
import { ADVERTISER_PREFIX, LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN, PROVIDER_FILTER_VALUES, ENTITY_STATUSES } from '../ids.js';

export const issueSchema = z
  .object({
    in: z.enum(ISSUE_LOCATIONS),
    path: z.string().describe('JSON Pointer into that part; empty string means the whole part.'),
    message: z.string(),
  })
  .meta({ id: 'Issue' });

/** Every failure: stable `error`, human `message`, plus the code's added fields. */
export const errorBodySchema = z
  .looseObject({
    error: z.string().describe('Stable code; branch on it.'),
    message: z.string().describe('Sentence for a person; never branch on it.'),
    issues: z.array(issueSchema).optional(),
    issueCount: z.number().int().optional().describe('Present when `issues` was cut short (it lists the first 20): how many issues there were in all.'),
    paywallUrl: z.string().optional(),
    provider: z.string().optional(),
    platformError: z.record(z.string(), z.unknown()).optional(),
    currentRevision: z.number().optional(),
    slug: z.string().optional(),
    allowed: z.array(z.string()).optional(),
    sizeBytes: z.number().optional(),
    limitBytes: z.number().optional(),
  })
  .meta({ id: 'Error' });
export type ErrorBodyShape = z.infer<typeof errorBodySchema>;

/** `{ data, nextCursor? }`: nextCursor only when more rows exist. */
export function pageSchema<T extends z.ZodType>(row: T) {
  return z.object({
    data: z.array(row),
    nextCursor: z.string().min(1).optional().describe('Present only when more rows exist.'),
  });
}

/** A query string carries text: '10' must become 10, but '1e1', ' 10' or '10.0' must not. */
export const limitQuery = z
  .string()
  .regex(/^[0-9]{1,4}$/, { message: `must be an integer from ${LIMIT_MIN} to ${LIMIT_MAX}` })
  .transform(Number)
  .pipe(z.number().int().min(LIMIT_MIN).max(LIMIT_MAX))
  .optional()
  .transform((v) => v ?? LIMIT_DEFAULT)
  // Documented as what it means on the wire (an integer); the pattern above only keeps
  // other spellings of a number ('1e2', ' 5') out, which no integer serializes to.
  .meta({
    description: `Rows per page: ${LIMIT_MIN} to ${LIMIT_MAX}, default ${LIMIT_DEFAULT}. Counts rows of the answer.`,
    type: 'integer',
    minimum: LIMIT_MIN,
    maximum: LIMIT_MAX,
    default: LIMIT_DEFAULT,
    param: { example: 100 },
  });

export const cursorQuery = z
  .string()
  .min(1)
  .optional()
  .describe('The nextCursor of the previous page, unchanged, with the same filters. Omit for the first page.');

/** The paging part of every list's query; spread it: `z.object({ ...pageQueryShape, status: ... })`. */
export const pageQueryShape = { cursor: cursorQuery, limit: limitQuery };

// A regex rather than startsWith: the same check, and unlike startsWith it reaches the
// OpenAPI documents as `pattern`.
export const advertiserIdSchema = z
  .string()
  .regex(new RegExp(`^${ADVERTISER_PREFIX}`), { message: `must start with ${ADVERTISER_PREFIX}` })
  .max(200)
  .meta({ description: `Advertiser id; starts with ${ADVERTISER_PREFIX}.` });
export const providerFilterSchema = z
  .enum(PROVIDER_FILTER_VALUES)
  .meta({ description: 'Ad platform: one of the seven provider tokens. Omitted: every connected provider.' });
export const entityStatusSchema = z.enum(ENTITY_STATUSES).meta({ description: 'Status the entity is set to (not whether it delivers).' });

/** Comma-separated ids → string[] (empty items dropped). */
export const idsQuery = z
  .string()
  .max(20_000)
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x.length > 0),
  )
  .optional()
  .describe('Comma-separated bare provider ids.');
