// Each operation's request schemas (path params, query, body) beside its id:
// the one place that says what an operation accepts. The sandbox validates
// with these schemas (its routes and the OpenAPI documents are built from
// them), and the CLI derives its flags, argument checks, --help, completions
// and "unknown field" warnings from them, through the plain JSON that
// src/contract/operation-inputs.ts emits (so `--help` loads no zod).
// A test checks that this map and the published OpenAPI documents agree.
import type { z } from 'zod';
import {
  assetParams, deleteAssetQuery, listAssetsQuery, registerAssetBody, renameAssetBody, reserveAssetBody,
} from './schemas/assets.js';
import {
  addLineItemBody, approvePlanBody, attachAdvertiserBody, brandAdvertiserParams, brandDocumentParams, brandParams, catalogParams,
  createBrandBody, createPersonaBody, createPlanBody, createSkillBody, deleteQuery, documentParams, importCatalogSkillBody,
  lineItemParams, listBrandAdvertisersQuery, listBrandsQuery, listCatalogQuery, listDocumentsQuery, listPersonasQuery, listPlansQuery,
  listSkillsQuery, personaParams, planParams, recordExecutionBody, reimportSkillBody, reserveDocumentBody, skillParams,
  updateBrandBody, updateLineItemBody, updatePersonaBody, updatePlanBody, updateSkillBody,
} from './schemas/context.js';
import { createMutationBody, idempotencyHeaders, listMutationsQuery, mutationParams } from './schemas/mutations.js';
import {
  insightsQuerySchema, liveAdGroupsQuerySchema, liveAdsQuerySchema, liveAssetGroupsQuerySchema, liveCampaignsQuerySchema,
  liveCreativesQuerySchema, liveGetParamsSchema, liveListParamsSchema, storedAdGroupsQuerySchema, storedAdsQuerySchema,
  storedAssetGroupsQuerySchema, storedCampaignsQuerySchema, storedCreativesQuerySchema,
} from './schemas/observe.js';

export interface OperationSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  headers?: z.ZodType;
  body?: z.ZodType;
  /** A body may be omitted altogether (default: required when a body schema is given). */
  bodyOptional?: boolean;
}

const live = (query: z.ZodType): OperationSchemas => ({ params: liveListParamsSchema, query });

export const OPERATION_SCHEMAS: Readonly<Record<string, OperationSchemas>> = {
  // Observe.
  listInsights: { query: insightsQuerySchema },
  listCampaigns: { query: storedCampaignsQuerySchema },
  listLiveCampaigns: live(liveCampaignsQuerySchema),
  getLiveCampaign: { params: liveGetParamsSchema },
  listAdGroups: { query: storedAdGroupsQuerySchema },
  listLiveAdGroups: live(liveAdGroupsQuerySchema),
  getLiveAdGroup: { params: liveGetParamsSchema },
  listAds: { query: storedAdsQuerySchema },
  listLiveAds: live(liveAdsQuerySchema),
  getLiveAd: { params: liveGetParamsSchema },
  listCreatives: { query: storedCreativesQuerySchema },
  listLiveCreatives: live(liveCreativesQuerySchema),
  getLiveCreative: { params: liveGetParamsSchema },
  listAssetGroups: { query: storedAssetGroupsQuerySchema },
  listLiveAssetGroups: live(liveAssetGroupsQuerySchema),
  getLiveAssetGroup: { params: liveGetParamsSchema },

  // Mutations.
  listMutations: { query: listMutationsQuery },
  createMutation: { headers: idempotencyHeaders, body: createMutationBody },
  getMutation: { params: mutationParams },

  // Skills and the catalog.
  listSkills: { query: listSkillsQuery },
  createSkill: { body: createSkillBody },
  getSkill: { params: skillParams },
  updateSkill: { params: skillParams, body: updateSkillBody },
  deleteSkill: { params: skillParams, query: deleteQuery },
  reimportSkill: { params: skillParams, body: reimportSkillBody, bodyOptional: true },
  listSkillCatalog: { query: listCatalogQuery },
  importCatalogSkill: { params: catalogParams, body: importCatalogSkillBody, bodyOptional: true },

  // Brands, their advertisers, Personas and Documents.
  listBrands: { query: listBrandsQuery },
  createBrand: { body: createBrandBody },
  getBrand: { params: brandParams },
  updateBrand: { params: brandParams, body: updateBrandBody },
  deleteBrand: { params: brandParams, query: deleteQuery },
  listBrandAdvertisers: { params: brandParams, query: listBrandAdvertisersQuery },
  attachBrandAdvertiser: { params: brandParams, body: attachAdvertiserBody },
  detachBrandAdvertiser: { params: brandAdvertiserParams },
  listPersonas: { params: brandParams, query: listPersonasQuery },
  createPersona: { params: brandParams, body: createPersonaBody },
  getPersona: { params: personaParams },
  updatePersona: { params: personaParams, body: updatePersonaBody },
  deletePersona: { params: personaParams, query: deleteQuery },
  listDocuments: { params: brandDocumentParams, query: listDocumentsQuery },
  reserveDocument: { params: brandDocumentParams, body: reserveDocumentBody },
  finalizeDocument: { params: documentParams },
  getDocument: { params: documentParams },
  deleteDocument: { params: documentParams },

  // Campaign Plans and Line Items.
  listCampaignPlans: { query: listPlansQuery },
  createCampaignPlan: { body: createPlanBody },
  getCampaignPlan: { params: planParams },
  updateCampaignPlan: { params: planParams, body: updatePlanBody },
  deleteCampaignPlan: { params: planParams, query: deleteQuery },
  approveCampaignPlan: { params: planParams, body: approvePlanBody, bodyOptional: true },
  addLineItem: { params: planParams, body: addLineItemBody },
  updateLineItem: { params: lineItemParams, body: updateLineItemBody },
  deleteLineItem: { params: lineItemParams, query: deleteQuery },
  validateLineItem: { params: lineItemParams },
  getLineItemReadiness: { params: lineItemParams },
  recordLineItemExecution: { params: lineItemParams, body: recordExecutionBody },

  // Assets.
  listAssets: { query: listAssetsQuery },
  reserveAssetUpload: { body: reserveAssetBody },
  finalizeAsset: { params: assetParams },
  getAsset: { params: assetParams },
  renameAsset: { params: assetParams, body: renameAssetBody },
  deleteAsset: { params: assetParams, query: deleteAssetQuery },
  registerAsset: { params: assetParams, body: registerAssetBody },
};
