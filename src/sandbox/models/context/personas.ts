// Personas: each belongs to one Brand; the handle is (brand slug, persona
// slug), unique per Brand, so two Brands may each hold the same persona slug.
import type { CreatePersona, Persona, UpdatePersona } from '../../../contract/schemas/context.js';
import { domainError } from '../errors.js';
import type { BrandRow } from './brands.js';
import { checkRevision, writeWithRevision } from './revision.js';
import { fromJsonList, toJsonList } from './scope.js';
import type { Scope } from '../scope.js';
import { assertSlug, isUniqueViolation } from './slug.js';
import { insertInto, storedChanges, storedOnCreate } from './stored-fields.js';
import type { StoredFields } from './stored-fields.js';
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

/** Where each field a create or update body may carry is stored, and as what (lists as JSON text). */
const PERSONA_FIELDS: StoredFields<Omit<UpdatePersona, 'revision'>, PersonaRow> = {
  name: { column: 'name', store: (v) => v },
  description: { column: 'description', store: (v) => v ?? '' },
  demographics: { column: 'demographics', store: (v) => v ?? null },
  goals: { column: 'goals', store: toJsonList },
  painPoints: { column: 'pain_points', store: toJsonList },
  channels: { column: 'channels', store: toJsonList },
};

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
    const values = { brand_seq: brand.seq, slug: body.slug, ...storedOnCreate(PERSONA_FIELDS, body), revision: 1, created_at: now, updated_at: now };
    s.db.prepare(insertInto(PERSONAS_TABLE, values)).run(...Object.values(values));
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict();
    throw error;
  }
  return getPersona(s, brand, body.slug);
}

export function updatePersona(s: Scope, brand: BrandRow, slug: string, body: UpdatePersona): PersonaRow {
  const row = getPersona(s, brand, slug);
  return writeWithRevision<PersonaRow>({
    db: s.db,
    table: PERSONAS_TABLE,
    seq: row.seq,
    expected: body.revision,
    set: storedChanges(PERSONA_FIELDS, body),
    now: s.clock.now(),
  });
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
