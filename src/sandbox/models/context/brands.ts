// Brands: by slug, four markdown sections, and the advertisers attached to
// them. Deleting a Brand deletes its Personas, Documents (rows here; the
// caller removes the files) and advertiser attachments.
import type { Brand, BrandSection, BrandSummary, CreateBrand, UpdateBrand } from '../../../contract/schemas/context.js';
import { domainError } from '../errors.js';
import { checkRevision, writeSlugWithRevision } from './revision.js';
import type { Scope } from '../scope.js';
import { assertSlug, isUniqueViolation, slugConflict } from './slug.js';
import { insertInto, storedChanges, storedOnCreate } from './stored-fields.js';
import type { StoredFields } from './stored-fields.js';
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

/** Where each field a create or update body may carry is stored, and as what. */
const BRAND_FIELDS: StoredFields<Omit<UpdateBrand, 'revision'>, BrandRow> = {
  name: { column: 'name', store: (v) => v },
  description: { column: 'description', store: (v) => v ?? '' },
  logoUrl: { column: 'logo_url', store: (v) => v ?? null },
  identity: { column: 'identity', store: prose },
  voice: { column: 'voice', store: prose },
  guidelines: { column: 'guidelines', store: prose },
  messaging: { column: 'messaging', store: prose },
};

/**
 * The one row → answer mapping of a Brand, its prose shown as `sections` shows it: whole in the
 * Brand, as which section carries some in the summary (a list carries no prose).
 */
function brandAnswer<S extends object>(r: BrandRow, sections: (prose: Pick<Brand, BrandSection>) => S) {
  return {
    slug: r.slug,
    name: r.name,
    description: r.description,
    logoUrl: r.logo_url,
    ...sections({ identity: r.identity, voice: r.voice, guidelines: r.guidelines, messaging: r.messaging }),
    revision: r.revision,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export const toBrand = (r: BrandRow): Brand => brandAnswer(r, (prose) => prose);

export const toBrandSummary = (r: BrandRow): BrandSummary =>
  brandAnswer(r, (p) => ({
    sections: { identity: p.identity !== null, voice: p.voice !== null, guidelines: p.guidelines !== null, messaging: p.messaging !== null },
  }));

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
  const values = { org_id: s.orgId, slug: body.slug, ...storedOnCreate(BRAND_FIELDS, body), revision: 1, created_at: now, updated_at: now };
  let inserted: BrandRow | undefined;
  try {
    // The row as stored, from the INSERT itself (no read after the write).
    inserted = s.db.prepare<unknown[], BrandRow>(`${insertInto(BRANDS_TABLE, values)} RETURNING *`).get(...Object.values(values));
  } catch (error) {
    if (isUniqueViolation(error)) throw slugConflict(body.slug, 'Brand');
    throw error;
  }
  return inserted ?? getBrand(s, body.slug);
}

export function updateBrand(s: Scope, slug: string, body: UpdateBrand): BrandRow {
  return writeSlugWithRevision<BrandRow>({
    db: s.db,
    table: BRANDS_TABLE,
    orgId: s.orgId,
    slug,
    notFound: brandNotFound,
    expected: body.revision,
    set: storedChanges(BRAND_FIELDS, body),
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
