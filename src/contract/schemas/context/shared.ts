// Pieces every Context schema shares: handles, revisions, times, list paging.
// Plain zod with `.meta()` (no @hono/zod-openapi import) so the CLI can load
// these without the sandbox's HTTP stack; @hono/zod-openapi reads `.meta()`.
import { z } from 'zod';
import { pageQueryShape } from '../common.js';

/**
 * A handle as sent. Only the type is checked here (wrong type → 400); the slug
 * rule itself is content (→ 422 invalid_slug), checked by the service.
 */
export const slugInput = z.string().max(200).meta({
  description: 'Handle: 1–64 lowercase letters, digits and single hyphens, not at either end (else 422 invalid_slug).',
  example: 'spring-sale',
});

export const slugOut = z.string().meta({ description: 'Handle, unique in its scope.', example: 'spring-sale' });

export const revision = z.number().int().min(1).meta({
  description: 'Row revision: starts at 1 and grows by 1 per write.',
  example: 3,
});

/** `revision` named in an update body: the revision the writer read. */
export const readRevision = z.number().int().min(1).meta({
  description: 'The revision you read. A stale one answers 409 revision_mismatch with currentRevision; nothing changes.',
  example: 3,
});

export const epochMs = z.number().int().meta({ description: 'Epoch milliseconds.', example: 1_790_000_000_000 });

/** Calendar date; impossible dates (2026-02-30) are a wrong shape. */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'not a calendar date')
  .meta({ format: 'date' })
  .meta({ description: 'Calendar date YYYY-MM-DD.', example: '2026-10-01' });

export const markdown = (max: number, description: string) => z.string().max(max).meta({ description });

/** limit/cursor of every Context list (spec: limit 1..500, default 100): the common paging query. */
export const pageQuery = pageQueryShape;

export function pageOf<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      data: z.array(item),
      nextCursor: z.string().optional().meta({ description: 'Present only when more rows exist.' }),
    })
    .meta({ id });
}

/** Optional `?revision=` on DELETE (one schema for every API: ../common.ts). */
export { deleteQuery } from '../common.js';

/**
 * Every field of `fields`, optional. A resource's create and update bodies both
 * start from one map of its editable fields: create re-requires what it needs
 * (`{ slug, ...optionalFields(editable), name: editable.name }`; the spread keeps
 * key order), update adds `revision`.
 */
export const optionalFields = <S extends z.ZodRawShape>(fields: S) => z.object(fields).partial().shape;

export const deleted = (fields: z.ZodRawShape, id: string) => z.object({ deleted: z.literal(true), ...fields }).meta({ id, description: 'What was deleted.' });
