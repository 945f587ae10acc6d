// Skills: an organization's playbooks, by slug. A Skill is `custom` (written
// here) or `catalog` (imported from the Skill Catalog, remembering which entry
// and version); re-import refreshes a catalog Skill to the entry's current
// version, overwriting local edits.
import type { CatalogSkill, CreateSkill, Skill, SkillSummary, UpdateSkill } from '../../../contract/schemas/context.js';
import { domainError } from '../errors.js';
import { findCatalogSkill, skillCatalog } from './catalog.js';
import { checkRevision, writeSlugWithRevision, writeWithRevision } from './revision.js';
import type { Scope } from '../scope.js';
import { assertSlug, isUniqueViolation, slugConflict } from './slug.js';
import { insertInto, storedChanges } from './stored-fields.js';
import type { StoredFields } from './stored-fields.js';
import { decodeSeqCursor, encodeCursor, keysetPage } from '../../store/cursor.js';
import type { Page } from '../../store/cursor.js';

export type SkillRow = {
  seq: number;
  org_id: string;
  slug: string;
  name: string;
  description: string;
  body: string;
  source: 'custom' | 'catalog';
  catalog_slug: string | null;
  catalog_version: string | null;
  imported_at: number | null;
  revision: number;
  created_at: number;
  updated_at: number;
};

export const SKILLS_TABLE = 'context_skills';

/** Where each field a create or update body may carry is stored, and as what. */
const SKILL_FIELDS: StoredFields<Omit<UpdateSkill, 'revision'>, SkillRow> = {
  name: { column: 'name', store: (v) => v },
  description: { column: 'description', store: (v) => v ?? '' },
  body: { column: 'body', store: (v) => v ?? '' },
};

export function toSkillSummary(r: SkillRow): SkillSummary {
  return {
    slug: r.slug,
    name: r.name,
    description: r.description,
    source: r.source,
    catalogSlug: r.catalog_slug,
    catalogVersion: r.catalog_version,
    importedAt: r.imported_at,
    revision: r.revision,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** A Skill is its summary and its body: one list of fields, so the two answers cannot drift apart. */
export const toSkill = (r: SkillRow): Skill => ({ ...toSkillSummary(r), body: r.body });

const notFound = () => domainError('not_found', 'No Skill with this slug in your organization.');

export function findSkill(s: Scope, slug: string): SkillRow | null {
  return s.db.prepare<[string, string], SkillRow>(`SELECT * FROM ${SKILLS_TABLE} WHERE org_id = ? AND slug = ?`).get(s.orgId, slug) ?? null;
}

export function getSkill(s: Scope, slug: string): SkillRow {
  return (
    findSkill(s, slug) ??
    (() => {
      throw notFound();
    })()
  );
}

function insertSkill(s: Scope, row: Omit<SkillRow, 'seq' | 'org_id' | 'revision' | 'created_at' | 'updated_at'>): SkillRow {
  assertSlug(row.slug);
  const now = s.clock.now();
  const values = { org_id: s.orgId, ...row, revision: 1, created_at: now, updated_at: now };
  let seq: number;
  try {
    // No look-up of the slug first: the table's one UNIQUE constraint is (org_id, slug), so the
    // INSERT itself refuses a taken slug, and one statement does what two did (#37).
    seq = Number(s.db.prepare(insertInto(SKILLS_TABLE, values)).run(...Object.values(values)).lastInsertRowid);
  } catch (error) {
    if (isUniqueViolation(error)) throw slugConflict(row.slug, 'Skill');
    throw error;
  }
  // The row as stored: every column was given above (no default, no trigger changes one), so no
  // read after the write (`RETURNING *` or a SELECT cost ~2 µs of each create, #27).
  return { seq, ...values };
}

export function createSkill(s: Scope, body: CreateSkill): SkillRow {
  return insertSkill(s, {
    slug: body.slug,
    name: body.name,
    description: body.description ?? '',
    body: body.body ?? '',
    source: 'custom',
    catalog_slug: null,
    catalog_version: null,
    imported_at: null,
  });
}

export function updateSkill(s: Scope, slug: string, body: UpdateSkill): SkillRow {
  return writeSlugWithRevision<SkillRow>({
    db: s.db,
    table: SKILLS_TABLE,
    orgId: s.orgId,
    slug,
    notFound,
    expected: body.revision,
    set: storedChanges(SKILL_FIELDS, body),
    now: s.clock.now(),
  });
}

export function deleteSkill(s: Scope, slug: string, revision: number | undefined): void {
  s.db.transaction(() => {
    const row = getSkill(s, slug);
    checkRevision(row.revision, revision);
    s.db.prepare(`DELETE FROM ${SKILLS_TABLE} WHERE seq = ?`).run(row.seq);
  })();
}

export function importCatalogSkill(s: Scope, catalogSlug: string, slug: string | undefined): SkillRow {
  const entry = findCatalogSkill(skillCatalog(s.services.settings), catalogSlug);
  if (!entry) throw domainError('not_found', 'No Skill Catalog entry with this catalogSlug.');
  return insertSkill(s, {
    slug: slug ?? entry.catalogSlug,
    name: entry.name,
    description: entry.description,
    body: entry.body,
    source: 'catalog',
    catalog_slug: entry.catalogSlug,
    catalog_version: entry.version,
    imported_at: s.clock.now(),
  });
}

/**
 * Refresh a catalog Skill from its entry's current version. Overwrites name,
 * description and body (local edits are lost, hence the optional revision) and
 * bumps the revision even when the version is unchanged: the content was
 * rewritten from the catalog, which is a write.
 */
export function reimportSkill(s: Scope, slug: string, revision: number | undefined): SkillRow {
  return s.db.transaction(() => {
    const row = getSkill(s, slug);
    if (row.source !== 'catalog' || row.catalog_slug === null) {
      throw domainError('not_imported', 'This Skill was written here, not imported from the Skill Catalog; there is nothing to re-import.');
    }
    const entry = findCatalogSkill(skillCatalog(s.services.settings), row.catalog_slug);
    if (!entry) {
      throw domainError('catalog_entry_missing', 'The Skill Catalog no longer offers the entry this Skill was imported from.');
    }
    writeWithRevision({
      db: s.db,
      table: SKILLS_TABLE,
      seq: row.seq,
      expected: revision,
      set: { name: entry.name, description: entry.description, body: entry.body, catalog_version: entry.version, imported_at: s.clock.now() },
      now: s.clock.now(),
    });
    return getSkill(s, slug);
  })();
}

/** Paging parameters and the list's filters, as the route validated them. */
type ListQuery<F = object> = { cursor?: string | undefined; limit: number } & F;

/** GET /context/skills: newest first, no bodies; `source` filters. */
export function listSkills(s: Scope, query: ListQuery<{ source?: 'custom' | 'catalog' | undefined }>): Page<SkillSummary> {
  const { cursor, limit, ...filters } = query;
  return keysetPage<SkillRow, SkillSummary>({
    db: s.db,
    secret: s.secret,
    scope: 'listSkills',
    filters,
    cursor,
    limit,
    select: '*',
    from: SKILLS_TABLE,
    seq: 'seq',
    where: ['org_id = @org', filters.source ? 'source = @source' : null],
    params: { org: s.orgId, source: filters.source },
    map: toSkillSummary,
  });
}

/** GET /context/skill-catalog: a fixed, short list in the service's order; the cursor is an index into it. */
export function listCatalog(s: Scope, query: ListQuery): Page<CatalogSkill> {
  const { cursor, limit, ...filters } = query;
  const catalog = skillCatalog(s.services.settings);
  const from = cursor === undefined ? 0 : decodeSeqCursor(s.secret, 'listSkillCatalog', filters, cursor);
  const data = catalog.slice(from, from + limit);
  const next = from + limit;
  return next < catalog.length ? { data, nextCursor: encodeCursor(s.secret, 'listSkillCatalog', filters, next) } : { data };
}
