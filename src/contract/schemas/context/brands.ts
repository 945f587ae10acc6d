// Brands (four markdown sections) and the advertisers attached to them.
import { z } from 'zod';
import { advertiserIdSchema } from '../common.js';
import { deleted, epochMs, markdown, optionalFields, pageOf, pageQuery, readRevision, revision, slugInput, slugOut } from './shared.js';

export const BRAND_SECTIONS = ['identity', 'voice', 'guidelines', 'messaging'] as const;
export type BrandSection = (typeof BRAND_SECTIONS)[number];

const section = (what: string) =>
  z
    .string()
    .nullable()
    .meta({ description: `${what} (markdown); null when not written.` });

const brandHead = {
  slug: slugOut,
  name: z.string().meta({ example: 'Acme Outdoor' }),
  description: z.string(),
  logoUrl: z.string().nullable().meta({ description: 'Logo address; null when none.' }),
  revision,
  createdAt: epochMs,
  updatedAt: epochMs,
};

export const brandSchema = z
  .object({
    ...brandHead,
    identity: section('Who the brand is'),
    voice: section('How it speaks'),
    guidelines: section('Dos and don’ts'),
    messaging: section('Key messages'),
  })
  .meta({ id: 'Brand' });

export const brandSectionsSchema = z
  .object({ identity: z.boolean(), voice: z.boolean(), guidelines: z.boolean(), messaging: z.boolean() })
  .meta({ id: 'BrandSections', description: 'Which sections carry prose (non-blank).' });

export const brandSummarySchema = z
  .object({ ...brandHead, sections: brandSectionsSchema })
  .meta({ id: 'BrandSummary', description: 'A Brand as listed: no prose, only which sections carry some.' });

export const brandPageSchema = pageOf(brandSummarySchema, 'BrandPage');
export const listBrandsQuery = z.object({ ...pageQuery });

const sectionInput = markdown(256 * 1024, 'Markdown, up to 256 KiB; null or blank clears it.').nullable();
const logoUrlInput = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  // The protocol rule in JSON Schema words, so the published document (and the CLI's check) carries it too.
  .meta({ pattern: '^[Hh][Tt][Tt][Pp][Ss]?:' })
  .nullable()
  .meta({ description: 'http(s) address of the logo, or null.' });

const editable = {
  name: z.string().min(1).max(200),
  description: z.string().max(2000),
  logoUrl: logoUrlInput,
  identity: sectionInput,
  voice: sectionInput,
  guidelines: sectionInput,
  messaging: sectionInput,
};

export const createBrandBody = z.strictObject({ slug: slugInput, ...optionalFields(editable), name: editable.name }).meta({ id: 'CreateBrand' });

export const updateBrandBody = z
  .strictObject({ revision: readRevision, ...optionalFields(editable) })
  .meta({ id: 'UpdateBrand', description: 'Fields to change; `revision` is required. The slug cannot change.' });

export const brandParams = z.object({ slug: z.string().meta({ description: 'Brand handle.' }) });
export const brandDeletedSchema = deleted(
  {
    slug: z.string(),
    personasDeleted: z.number().int().meta({ description: 'Personas deleted with the Brand.' }),
    documentsDeleted: z.number().int().meta({ description: 'Documents (and their files) deleted with the Brand.' }),
  },
  'BrandDeleted',
);

// Advertisers of a Brand.
export const brandAdvertiserSchema = z
  .object({
    advertiserId: advertiserIdSchema.meta({ example: 'acc_1001' }),
    provider: z.string().meta({ description: 'Provider token of the advertiser.' }),
    name: z.string(),
    currency: z.string().nullable(),
    attachedAt: epochMs,
  })
  .meta({ id: 'BrandAdvertiser' });

export const brandAdvertiserPageSchema = pageOf(brandAdvertiserSchema, 'BrandAdvertiserPage');
export const listBrandAdvertisersQuery = z.object({ ...pageQuery });

export const advertiserIdInput = advertiserIdSchema.meta({
  description: 'An advertiser of your organization (else 422 advertiser_not_owned).',
  example: 'acc_1001',
});

export const attachAdvertiserBody = z.strictObject({ advertiserId: advertiserIdInput }).meta({ id: 'AttachAdvertiser' });
export const brandAdvertiserParams = z.object({
  slug: z.string().meta({ description: 'Brand handle.' }),
  advertiserId: advertiserIdSchema.meta({ description: 'Attached advertiser; starts with acc_.' }),
});
export const advertiserDetachedSchema = deleted({ slug: z.string(), advertiserId: advertiserIdSchema }, 'BrandAdvertiserDetached');

export type Brand = z.infer<typeof brandSchema>;
export type BrandSummary = z.infer<typeof brandSummarySchema>;
export type BrandAdvertiser = z.infer<typeof brandAdvertiserSchema>;
export type CreateBrand = z.infer<typeof createBrandBody>;
export type UpdateBrand = z.infer<typeof updateBrandBody>;
