// The Assets API's request and response schemas, keyed by the ids of ./assets.ts:
// what each operation accepts and answers. Kept apart from the plain entries so
// the CLI's fast paths, which read those, never load zod.
import type { OperationSchemas } from './schemas-shape.js';
import type { ASSETS_OPERATIONS } from './assets.js';
import {
  assetDeletedSchema,
  assetPageSchema,
  assetParams,
  assetRegistrationSchema,
  assetSchema,
  deleteAssetQuery,
  listAssetsQuery,
  registerAssetBody,
  renameAssetBody,
  reserveAssetBody,
  reservedAssetSchema,
} from '../schemas/assets.js';

/** Exhaustive: an operation of ./assets.ts missing here, or an id it lacks, is a compile error. */
export const ASSETS_SCHEMAS = {
  listAssets: { query: listAssetsQuery, response: assetPageSchema },
  reserveAssetUpload: { body: reserveAssetBody, response: reservedAssetSchema },
  finalizeAsset: { params: assetParams, response: assetSchema },
  getAsset: { params: assetParams, response: assetSchema },
  renameAsset: { params: assetParams, body: renameAssetBody, response: assetSchema },
  deleteAsset: { params: assetParams, query: deleteAssetQuery, response: assetDeletedSchema },
  registerAsset: { params: assetParams, body: registerAssetBody, response: assetRegistrationSchema },
} as const satisfies { readonly [K in keyof typeof ASSETS_OPERATIONS]: OperationSchemas };
