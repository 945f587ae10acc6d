// Brands: by slug, four markdown sections, and the advertisers attached to
// them. Deleting a Brand deletes its Personas, Documents (rows here; the
// caller removes the files) and advertiser attachments.
import type { Brand, BrandSummary, CreateBrand, UpdateBrand } from '../../../contract/schemas/context.js';
import { BRAND_SECTIONS } from '../../../contract/schemas/context.js';
import { domainError } from '../errors.js';
import { checkRevision, writeSlugWithRevision } from './revision.js';
import type { Scope } from '../scope.js';
import { assertSlug, isUniqueViolation, slugConflict } from './slug.js';
import { keysetPage } from '../../store/cursor.js';
import type { Page } from '../../store/cursor.js';

export type BrandRow = {
  seq: number;
  org_id: string;
  slug: string;
  name: string;
  description: string;
  logo_url: string | null;
  identity: string | null;
  voice: string | null;
  guidelines: string | null;
  messaging: string | null;
  revision: number;
  created_at: number;
  updated_at: number;
};

export const BRANDS_TABLE = 'context_brands';

/** A section carries prose when it has a non-blank character; blank text is stored as null. */
const prose = (v: string | null | undefined): string | null => (v == null || v.trim() === '' ? null : v);

export function toBrandSummary(r: BrandRow): BrandSummary {
  return {
    slug: r.slug,
    name: r.name,
    description: r.description,
    logoUrl: r.logo_url,
    sections: {
      identity: r.identity !== null,
      voice: r.voice !== null,
      guidelines: r.guidelines !== null,
      messaging: r.messaging !== null,
    },
    revision: r.revision,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function toBrand(r: BrandRow): Brand {
  return {
    slug: r.slug,
    name: r.name,
    description: r.description,
    logoUrl: r.logo_url,
    identity: r.identity,
    voice: r.voice,
    guidelines: r.guidelines,
    messaging: r.messaging,
    revision: r.revision,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function findBrand(s: Scope, slug: string): BrandRow | null {
  return s.db.prepare<[string, string], BrandRow>(`SELECT * FROM ${BRANDS_TABLE} WHERE org_id = ? AND slug = ?`).get(s.orgId, slug) ?? null;
}

const brandNotFound = () => domainError('not_found', 'No Brand with this slug in your organization.');

export function getBrand(s: Scope, slug: string): BrandRow {
  const row = findBrand(s, slug);
  if (!row) throw brandNotFound();
  return row;
}

export function createBrand(s: Scope, body: CreateBrand): BrandRow {
  assertSlug(body.slug);
  if (findBrand(s, body.slug)) throw slugConflict(body.slug, 'Brand');
  const now = s.clock.now();
  let inserted: BrandRow | undefined;
  try {
    // The row as stored, from the INSERT itself (no read after the write).
    inserted = s.db
      .prepare<[Record<string, unknown>], BrandRow>(
        `INSERT INTO ${BRANDS_TABLE} (org_id, slug, name, description, logo_url, identity, voice, guidelines, messaging, revision, created_at, updated_at)
         VALUES (@org, @slug, @name, @description, @logo_url, @identity, @voice, @guidelines, @messaging, 1, @now, @now) RETURNING *`,
      )
      .get({
        org: s.orgId,
        slug: body.slug,
        name: body.name,
        description: body.description ?? '',
        logo_url: body.logoUrl ?? null,
        identity: prose(body.identity),
        voice: prose(body.voice),
        guidelines: prose(body.guidelines),
        messaging: prose(body.messaging),
        now,
      });
  } catch (error) {
    if (isUniqueViolation(error)) throw slugConflict(body.slug, 'Brand');
    throw error;
  }
  return inserted ?? getBrand(s, body.slug);
}

export function updateBrand(s: Scope, slug: string, body: UpdateBrand): BrandRow {
  const set: Record<string, unknown> = {};
  if (body.name !== undefined) set.name = body.name;
  if (body.description !== undefined) set.description = body.description;
  if (body.logoUrl !== undefined) set.logo_url = body.logoUrl;
  for (const section of BRAND_SECTIONS) {
    if (body[section] !== undefined) set[section] = prose(body[section]);
  }
  return writeSlugWithRevision<BrandRow>({
    db: s.db,
    table: BRANDS_TABLE,
    orgId: s.orgId,
    slug,
    notFound: brandNotFound,
    expected: body.revision,
    set,
    now: s.clock.now(),
  });
}

export interface BrandDeletion {
  personasDeleted: number;
  documentsDeleted: number;
  /** Upload ids whose files the caller must remove (the rows are gone already). */
  documentUploads: string[];
}

export function deleteBrand(s: Scope, slug: string, revision: number | undefined): BrandDeletion {
  return s.db.transaction(() => {
    const row = getBrand(s, slug);
    checkRevision(row.revision, revision);
    const personas = s.db.prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM context_personas WHERE brand_seq = ?').get(row.seq);
    const docs = s.db.prepare<[number], { file_key: string }>('SELECT file_key FROM context_documents WHERE brand_seq = ?').all(row.seq);
    s.db.prepare(`DELETE FROM ${BRANDS_TABLE} WHERE seq = ?`).run(row.seq); // cascades to personas, documents, attachments
    return { personasDeleted: personas?.n ?? 0, documentsDeleted: docs.length, documentUploads: docs.map((d) => d.file_key) };
  })();
}

/** Paging parameters and the list's filters, as the route validated them. */
type ListQuery<F = object> = { cursor?: string | undefined; limit: number } & F;

/** GET /context/brands: newest first, summaries. */
export function listBrands(s: Scope, query: ListQuery): Page<BrandSummary> {
  const { cursor, limit, ...filters } = query;
  return keysetPage<BrandRow, BrandSummary>({
    db: s.db,
    secret: s.secret,
    scope: 'listBrands',
    filters,
    cursor,
    limit,
    select: '*',
    from: BRANDS_TABLE,
    seq: 'seq',
    where: ['org_id = @org'],
    params: { org: s.orgId },
    map: toBrandSummary,
  });
}
