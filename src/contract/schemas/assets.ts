// Shapes of the Assets API (left open by the spec; choices recorded in
// docs/decisions.md). Upload: reserve → PUT bytes to uploadUrl
// (no API key) → finalize, which judges the bytes by their signature.
import { z } from 'zod';
import { ASSET_CONTENT_TYPES } from '../ids.js';
import { advertiserIdSchema, deleteQuery, pageQueryShape, pageSchema } from './common.js';

export const ASSET_STATES = ['reserved', 'uploaded', 'ready'] as const;
export type AssetState = (typeof ASSET_STATES)[number];

// Accepted media types: plain data in ../ids.ts (the CLI's upload reads it without zod).
export { ASSET_CONTENT_TYPES };

const epochMs = z.number().int().meta({ description: 'Epoch milliseconds.' });

export const assetRegistrationSchema = z
  .object({
    id: z.string().meta({ example: 'areg_5d1c0e3b7a' }),
    assetId: z.string(),
    advertiserId: advertiserIdSchema.meta({ description: 'Advertiser the Asset is registered to; starts with acc_.' }),
    provider: z.string(),
    providerAssetId: z.string().meta({ description: "The id the advertiser's provider library gave the asset (image hash, video id, asset resource name)." }),
    createdAt: epochMs,
  })
  .meta({ id: 'AssetRegistration' });

export const assetSchema = z
  .object({
    id: z.string().meta({ example: 'ast_9b2e4f6a8c0d1e3f5a7b' }),
    filename: z.string(),
    state: z.enum(ASSET_STATES).meta({
      description:
        'reserved (no bytes yet) → uploaded (bytes landed, not yet judged) → ready (finalized). A finalize that refuses the bytes deletes the asset.',
    }),
    kind: z.enum(['image', 'video']).nullable().meta({ description: 'Null until ready.' }),
    mimeType: z.string().nullable().meta({ description: 'Sniffed from the bytes at finalize; null until ready.' }),
    sizeBytes: z.number().int().nullable(),
    width: z.number().int().nullable().meta({ description: 'Pixels, from an image header; null for videos and until ready.' }),
    height: z.number().int().nullable(),
    revision: z.number().int().min(1).meta({ description: 'Starts at 1; grows by 1 per write (finalize, rename).' }),
    registrations: z.array(assetRegistrationSchema),
    createdAt: epochMs,
    updatedAt: epochMs,
    finalizedAt: epochMs.nullable(),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .nullable()
      .meta({ description: 'SHA-256 (lower-case hex) of the stored bytes, set at finalize; null until ready.' }),
  })
  .meta({ id: 'Asset' });
export type Asset = z.infer<typeof assetSchema>;

export const reservedAssetSchema = z
  .object({
    ...assetSchema.shape,
    uploadUrl: z
      .string()
      .meta({ description: 'PUT the bytes here with their Content-Type; no API key (an Authorization header is refused). Good for one complete upload.' }),
    uploadExpiresAt: epochMs.meta({ description: 'After this time the URL cannot start an upload.' }),
  })
  .meta({ id: 'ReservedAsset' });

export const reserveAssetBody = z
  .strictObject({
    filename: z.string().min(1).max(255).meta({ example: 'hero.jpg' }),
    contentType: z.enum(ASSET_CONTENT_TYPES).optional().meta({
      description:
        'Expected type: the storage then takes bytes of this type only (finalize answers 415 type_mismatch for another), and sizeBytes is checked against its limit.',
    }),
    sizeBytes: z.number().int().min(0).optional().meta({
      description:
        'Expected size; over the limit of contentType (or of every type) answers 413 too_large at once. The storage cuts a PUT off past this size (413 too_large).',
    }),
  })
  .meta({ id: 'ReserveAsset' });

export const renameAssetBody = z
  .strictObject({
    filename: z.string().min(1).max(255),
    revision: z
      .number()
      .int()
      .min(1)
      .meta({ description: 'The revision you read; a stale one answers 409 revision_mismatch with currentRevision and changes nothing.' }),
  })
  .meta({ id: 'RenameAsset' });

export const registerAssetBody = z.strictObject({ advertiserId: advertiserIdSchema }).meta({ id: 'RegisterAsset' });

export const assetParams = z.object({ id: z.string().min(1).max(200).describe('Asset id, as the reservation answered it.') });

export const listAssetsQuery = z.object({
  ...pageQueryShape,
  state: z.enum(ASSET_STATES).optional().describe('Only Assets in this state.'),
  kind: z.enum(['image', 'video']).optional().describe('Only images or only videos.'),
});

/** The same `?revision=` as every other DELETE (../common.ts): one schema, so the two cannot drift. */
export const deleteAssetQuery = deleteQuery;

export const assetPageSchema = pageSchema(assetSchema).meta({ id: 'AssetPage' });
export const assetDeletedSchema = z.object({ deleted: z.literal(true), id: z.string() }).meta({ id: 'AssetDeleted' });
