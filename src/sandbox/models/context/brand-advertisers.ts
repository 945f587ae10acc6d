// Advertisers attached to a Brand. Only the organization's own advertisers can
// be attached (422 advertiser_not_owned otherwise, the same answer for one that
// does not exist). Attaching twice is idempotent: 200 with the attachment.
import { nextSeq } from '../../store/schema/seq-high-water.js';
import type { BrandAdvertiser } from '../../../contract/schemas/context.js';
import { domainError } from '../errors.js';
import { ownedAdvertiser } from '../advertisers.js';
import type { BrandRow } from './brands.js';
import type { Scope } from '../scope.js';
import { keysetPage } from '../../store/cursor.js';
import type { Page } from '../../store/cursor.js';

export type AttachmentRow = {
  seq: number;
  advertiser_id: string;
  attached_at: number;
  provider: string;
  name: string;
  currency: string | null;
};

export const ATTACHMENTS_FROM = 'context_brand_advertisers ba JOIN advertisers a ON a.id = ba.advertiser_id';
export const ATTACHMENT_COLUMNS = 'ba.seq AS seq, ba.advertiser_id, ba.attached_at, a.provider, a.name, a.currency';

export function toBrandAdvertiser(r: AttachmentRow): BrandAdvertiser {
  return { advertiserId: r.advertiser_id, provider: r.provider, name: r.name, currency: r.currency, attachedAt: r.attached_at };
}

function attachment(s: Scope, brand: BrandRow, advertiserId: string): AttachmentRow | null {
  return (
    s.db
      .prepare<[number, string], AttachmentRow>(`SELECT ${ATTACHMENT_COLUMNS} FROM ${ATTACHMENTS_FROM} WHERE ba.brand_seq = ? AND ba.advertiser_id = ?`)
      .get(brand.seq, advertiserId) ?? null
  );
}

export function attachAdvertiser(s: Scope, brand: BrandRow, advertiserId: string): { row: AttachmentRow; created: boolean } {
  return s.db.transaction(() => {
    if (!ownedAdvertiser(s.db, s.orgId, advertiserId)) {
      throw domainError('advertiser_not_owned', 'This advertiser is not one of your organization’s.');
    }
    const existing = attachment(s, brand, advertiserId);
    if (existing) return { row: existing, created: false };
    s.db
      .prepare(`INSERT INTO context_brand_advertisers (seq, brand_seq, advertiser_id, attached_at) VALUES (${nextSeq('context_brand_advertisers')}, ?, ?, ?)`)
      .run(brand.seq, advertiserId, s.clock.now());
    return { row: attachment(s, brand, advertiserId)!, created: true };
  })();
}

export function detachAdvertiser(s: Scope, brand: BrandRow, advertiserId: string): void {
  const result = s.db.prepare('DELETE FROM context_brand_advertisers WHERE brand_seq = ? AND advertiser_id = ?').run(brand.seq, advertiserId);
  if (result.changes === 0) throw domainError('not_found', 'This advertiser is not attached to the Brand.');
}

/** Paging parameters and the list's filters, as the route validated them. */
type ListQuery<F = object> = { cursor?: string | undefined; limit: number } & F;

/** GET /context/brands/{slug}/advertisers: last attached first; a cursor of one Brand's list is no good on another's. */
export function listBrandAdvertisers(s: Scope, brand: BrandRow, query: ListQuery): Page<BrandAdvertiser> {
  const { cursor, limit, ...rest } = query;
  return keysetPage<AttachmentRow, BrandAdvertiser>({
    db: s.db,
    secret: s.secret,
    scope: 'listBrandAdvertisers',
    filters: { ...rest, brand: brand.slug },
    cursor,
    limit,
    select: ATTACHMENT_COLUMNS,
    from: ATTACHMENTS_FROM,
    seq: 'ba.seq',
    where: ['ba.brand_seq = @brand'],
    params: { brand: brand.seq },
    map: toBrandAdvertiser,
  });
}
