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

/** What every failure carries: stable `error`, human `message`; `issues` with invalid_request. */
const errorShape = {
  error: z.string().describe('Stable code; branch on it.'),
  message: z.string().describe('Sentence for a person; never branch on it.'),
  issues: z.array(issueSchema).optional(),
  issueCount: z.number().int().optional().describe('Present when `issues` was cut short (it lists the first 20): how many issues there were in all.'),
};

const providerField = { provider: z.string().describe('Provider token of the advertiser.') };

/**
 * The fields a code adds (spec: Errors, "Some failures add fields"), required with their code:
 * a `revision_mismatch` without `currentRevision` is not a valid answer.
 */
const ADDED_FIELDS = {
  revision_mismatch: { currentRevision: z.number().int().describe('Revision the row holds now.') },
  slug_conflict: { slug: z.string().describe('The slug already taken.') },
  organization_unentitled: { paywallUrl: z.url().describe('Where an owner subscribes.') },
  live_read_unsupported: providerField,
  provider_not_connected: providerField,
  provider_error: {
    ...providerField,
    platformError: z.record(z.string(), z.unknown()).optional().describe("The provider's error object, unchanged."),
  },
  unsupported_type: { allowed: z.array(z.string()).optional().describe('Accepted media types; when reserving a Document.') },
  too_large: {
    sizeBytes: z.number().optional().describe('Size of the stored file; when finalizing a Document.'),
    limitBytes: z.number().optional().describe('The limit; when finalizing a Document.'),
  },
} satisfies Record<string, z.ZodRawShape>;
type AddedCode = keyof typeof ADDED_FIELDS;
const ADDED_CODES = Object.keys(ADDED_FIELDS) as AddedCode[];

/** One code's failure: its own `error` word and the fields it adds (other fields may come too). */
const codeError = (code: string, added: z.ZodRawShape) =>
  z.looseObject({ ...errorShape, error: z.literal(code).describe('Stable code; branch on it.'), ...added });

/** A failure whose code adds no field of its own. */
const otherError = z.looseObject({
  ...errorShape,
  error: z
    .string()
    .refine((c) => !(ADDED_CODES as string[]).includes(c), { message: 'a code that adds fields has its own shape' })
    // The refine above, in JSON Schema words.
    .meta({ description: 'Stable code; branch on it.', not: { enum: ADDED_CODES } }),
});

function errorUnion(overrides: Partial<Record<AddedCode, z.ZodRawShape>> = {}) {
  return z.union([...ADDED_CODES.map((code) => codeError(code, { ...ADDED_FIELDS[code], ...overrides[code] })), otherError]);
}

/** Every failure: stable `error`, human `message`, plus the fields its code adds (required with that code). */
export const errorBodySchema = errorUnion().meta({ id: 'Error' });
export type ErrorBodyShape = z.infer<typeof errorBodySchema>;

/** A Document's finalize: its `too_large` always says the file's size and the limit. */
export const documentErrorBodySchema = errorUnion({
  too_large: { sizeBytes: z.number().describe('Size of the stored file.'), limitBytes: z.number().describe('The limit.') },
}).meta({ id: 'DocumentError' });

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

/**
 * Optional `?revision=` on every DELETE (Context and Assets alike): when given and stale, 409
 * revision_mismatch and nothing is deleted. One schema: two copies had drifted ({0,9} against {0,14}).
 */
export const deleteQuery = z.object({
  revision: z
    .string()
    .regex(/^[1-9][0-9]{0,14}$/, { message: 'must be a positive integer' })
    .transform(Number)
    .optional()
    // Documented as the integer it is on the wire (see limitQuery above).
    .meta({
      description: 'Optional: the revision you read; a stale one answers 409 revision_mismatch and nothing is deleted.',
      type: 'integer',
      minimum: 1,
      maximum: 999_999_999_999_999,
    }),
});

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
