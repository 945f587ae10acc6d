// Personas: each belongs to one Brand; the handle is (brand slug, persona
// slug), unique per Brand, so two Brands may each hold the same persona slug.
import type { CreatePersona, Persona, UpdatePersona } from '../../../contract/schemas/context.js';
import { domainError } from '../errors.js';
import type { BrandRow } from './brands.js';
import { checkRevision, writeWithRevision } from './revision.js';
import { fromJsonList, toJsonList } from './scope.js';
import type { Scope } from '../scope.js';
import { assertSlug, isUniqueViolation } from './slug.js';
import { keysetPage } from '../../store/cursor.js';
import type { Page } from '../../store/cursor.js';

export type PersonaRow = {
  seq: number;
  brand_seq: number;
  slug: string;
  name: string;
  description: string;
  demographics: string | null;
  goals: string;
  pain_points: string;
  channels: string;
  revision: number;
  created_at: number;
  updated_at: number;
};

export const PERSONAS_TABLE = 'context_personas';

export function toPersona(r: PersonaRow, brandSlug: string): Persona {
  return {
    brandSlug,
    slug: r.slug,
    name: r.name,
    description: r.description,
    demographics: r.demographics,
    goals: fromJsonList(r.goals),
    painPoints: fromJsonList(r.pain_points),
    channels: fromJsonList(r.channels),
    revision: r.revision,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function findPersona(s: Scope, brand: BrandRow, slug: string): PersonaRow | null {
  return s.db.prepare<[number, string], PersonaRow>(`SELECT * FROM ${PERSONAS_TABLE} WHERE brand_seq = ? AND slug = ?`).get(brand.seq, slug) ?? null;
}

export function getPersona(s: Scope, brand: BrandRow, slug: string): PersonaRow {
  const row = findPersona(s, brand, slug);
  if (!row) throw domainError('not_found', 'No Persona with this slug in the Brand.');
  return row;
}

export function createPersona(s: Scope, brand: BrandRow, body: CreatePersona): PersonaRow {
  assertSlug(body.slug);
  const conflict = () => domainError('slug_conflict', 'Another Persona of this Brand already has this slug.', { slug: body.slug });
  if (findPersona(s, brand, body.slug)) throw conflict();
  const now = s.clock.now();
  try {
    s.db
      .prepare(
        `INSERT INTO ${PERSONAS_TABLE} (brand_seq, slug, name, description, demographics, goals, pain_points, channels, revision, created_at, updated_at)
         VALUES (@brand, @slug, @name, @description, @demographics, @goals, @pain_points, @channels, 1, @now, @now)`,
      )
      .run({
        brand: brand.seq,
        slug: body.slug,
        name: body.name,
        description: body.description ?? '',
        demographics: body.demographics ?? null,
        goals: toJsonList(body.goals),
        pain_points: toJsonList(body.painPoints),
        channels: toJsonList(body.channels),
        now,
      });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict();
    throw error;
  }
  return getPersona(s, brand, body.slug);
}

export function updatePersona(s: Scope, brand: BrandRow, slug: string, body: UpdatePersona): PersonaRow {
  const row = getPersona(s, brand, slug);
  const set: Record<string, unknown> = {};
  if (body.name !== undefined) set.name = body.name;
  if (body.description !== undefined) set.description = body.description;
  if (body.demographics !== undefined) set.demographics = body.demographics;
  if (body.goals !== undefined) set.goals = toJsonList(body.goals);
  if (body.painPoints !== undefined) set.pain_points = toJsonList(body.painPoints);
  if (body.channels !== undefined) set.channels = toJsonList(body.channels);
  return writeWithRevision<PersonaRow>({ db: s.db, table: PERSONAS_TABLE, seq: row.seq, expected: body.revision, set, now: s.clock.now() });
}

export function deletePersona(s: Scope, brand: BrandRow, slug: string, revision: number | undefined): void {
  s.db.transaction(() => {
    const row = getPersona(s, brand, slug);
    checkRevision(row.revision, revision);
    s.db.prepare(`DELETE FROM ${PERSONAS_TABLE} WHERE seq = ?`).run(row.seq);
  })();
}

/** Paging parameters and the list's filters, as the route validated them. */
type ListQuery<F = object> = { cursor?: string | undefined; limit: number } & F;

/** GET /context/brands/{slug}/personas: newest first; the cursor is bound to the Brand. */
export function listPersonas(s: Scope, brand: BrandRow, query: ListQuery): Page<Persona> {
  const { cursor, limit, ...rest } = query;
  return keysetPage<PersonaRow, Persona>({
    db: s.db,
    secret: s.secret,
    scope: 'listPersonas',
    filters: { ...rest, brand: brand.slug },
    cursor,
    limit,
    select: '*',
    from: PERSONAS_TABLE,
    seq: 'seq',
    where: ['brand_seq = @brand'],
    params: { brand: brand.seq },
    map: (r) => toPersona(r, brand.slug),
  });
}
