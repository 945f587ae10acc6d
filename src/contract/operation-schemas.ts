// Each operation's request schemas (path params, query, body) beside its id:
// the one place that says what an operation accepts. The sandbox validates
// with these schemas (its routes and the OpenAPI documents are built from
// them), and the CLI derives its flags, argument checks, --help, completions
// and "unknown field" warnings from them, through the plain JSON that
// src/contract/operation-inputs.ts emits (so `--help` loads no zod).
// A test checks that this map and the published OpenAPI documents agree.
import type { z } from 'zod';
import { isOperationId, type OperationId } from './operations.js';
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
} from './schemas/assets.js';
import {
  addLineItemBody,
  advertiserDetachedSchema,
  approvePlanBody,
  attachAdvertiserBody,
  brandAdvertiserPageSchema,
  brandAdvertiserParams,
  brandAdvertiserSchema,
  brandDeletedSchema,
  brandDocumentParams,
  brandPageSchema,
  brandParams,
  brandSchema,
  catalogPageSchema,
  catalogParams,
  createBrandBody,
  createPersonaBody,
  createPlanBody,
  createSkillBody,
  deleteQuery,
  documentDeletedSchema,
  documentPageSchema,
  documentParams,
  documentSchema,
  executionSchema,
  importCatalogSkillBody,
  lineItemDeletedSchema,
  lineItemParams,
  lineItemSchema,
  listBrandAdvertisersQuery,
  listBrandsQuery,
  listCatalogQuery,
  listDocumentsQuery,
  listPersonasQuery,
  listPlansQuery,
  listSkillsQuery,
  personaDeletedSchema,
  personaPageSchema,
  personaParams,
  personaSchema,
  planDeletedSchema,
  planPageSchema,
  planParams,
  planSchema,
  readinessSchema,
  recordExecutionBody,
  reimportSkillBody,
  reserveDocumentBody,
  reservedDocumentSchema,
  skillDeletedSchema,
  skillPageSchema,
  skillParams,
  skillSchema,
  updateBrandBody,
  updateLineItemBody,
  updatePersonaBody,
  updatePlanBody,
  updateSkillBody,
  validationSchema,
} from './schemas/context.js';
import { documentErrorBodySchema } from './schemas/common.js';
import { createMutationBody, idempotencyHeaders, listMutationsQuery, mutationPageSchema, mutationParams, mutationSchema } from './schemas/mutations.js';
import {
  adGroupPageSchema,
  adPageSchema,
  assetGroupPageSchema,
  campaignPageSchema,
  creativePageSchema,
  insightPageSchema,
  insightsQuerySchema,
  liveAdGroupsQuerySchema,
  liveAdsQuerySchema,
  liveAssetGroupsQuerySchema,
  liveCampaignsQuerySchema,
  liveCreativesQuerySchema,
  liveGetParamsSchema,
  liveListParamsSchema,
  providerPayloadSchema,
  storedAdGroupsQuerySchema,
  storedAdsQuerySchema,
  storedAssetGroupsQuerySchema,
  storedCampaignsQuerySchema,
  storedCreativesQuerySchema,
} from './schemas/observe.js';

export interface OperationSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  headers?: z.ZodType;
  body?: z.ZodType;
  /** A body may be omitted altogether (default: required when a body schema is given). */
  bodyOptional?: boolean;
  /** The 2xx answer's body (the client does not validate it: the real service may send more). */
  response?: z.ZodType;
  /** The failure body, where this operation's codes add more than every operation's do (default: errorBodySchema). */
  error?: z.ZodType;
}

const live = <Q extends z.ZodType, R extends z.ZodType>(query: Q, response: R) => ({ params: liveListParamsSchema, query, response });

/** Exhaustive: an operation of the table missing here, or an id the table lacks, is a compile error. */
export const OPERATION_SCHEMAS = {
  // Observe.
  listInsights: { query: insightsQuerySchema, response: insightPageSchema },
  listCampaigns: { query: storedCampaignsQuerySchema, response: campaignPageSchema },
  listLiveCampaigns: live(liveCampaignsQuerySchema, campaignPageSchema),
  getLiveCampaign: { params: liveGetParamsSchema, response: providerPayloadSchema },
  listAdGroups: { query: storedAdGroupsQuerySchema, response: adGroupPageSchema },
  listLiveAdGroups: live(liveAdGroupsQuerySchema, adGroupPageSchema),
  getLiveAdGroup: { params: liveGetParamsSchema, response: providerPayloadSchema },
  listAds: { query: storedAdsQuerySchema, response: adPageSchema },
  listLiveAds: live(liveAdsQuerySchema, adPageSchema),
  getLiveAd: { params: liveGetParamsSchema, response: providerPayloadSchema },
  listCreatives: { query: storedCreativesQuerySchema, response: creativePageSchema },
  listLiveCreatives: live(liveCreativesQuerySchema, creativePageSchema),
  getLiveCreative: { params: liveGetParamsSchema, response: providerPayloadSchema },
  listAssetGroups: { query: storedAssetGroupsQuerySchema, response: assetGroupPageSchema },
  listLiveAssetGroups: live(liveAssetGroupsQuerySchema, assetGroupPageSchema),
  getLiveAssetGroup: { params: liveGetParamsSchema, response: providerPayloadSchema },

  // Mutations.
  listMutations: { query: listMutationsQuery, response: mutationPageSchema },
  createMutation: { headers: idempotencyHeaders, body: createMutationBody, response: mutationSchema },
  getMutation: { params: mutationParams, response: mutationSchema },

  // Skills and the catalog.
  listSkills: { query: listSkillsQuery, response: skillPageSchema },
  createSkill: { body: createSkillBody, response: skillSchema },
  getSkill: { params: skillParams, response: skillSchema },
  updateSkill: { params: skillParams, body: updateSkillBody, response: skillSchema },
  deleteSkill: { params: skillParams, query: deleteQuery, response: skillDeletedSchema },
  reimportSkill: { params: skillParams, body: reimportSkillBody, bodyOptional: true, response: skillSchema },
  listSkillCatalog: { query: listCatalogQuery, response: catalogPageSchema },
  importCatalogSkill: { params: catalogParams, body: importCatalogSkillBody, bodyOptional: true, response: skillSchema },

  // Brands, their advertisers, Personas and Documents.
  listBrands: { query: listBrandsQuery, response: brandPageSchema },
  createBrand: { body: createBrandBody, response: brandSchema },
  getBrand: { params: brandParams, response: brandSchema },
  updateBrand: { params: brandParams, body: updateBrandBody, response: brandSchema },
  deleteBrand: { params: brandParams, query: deleteQuery, response: brandDeletedSchema },
  listBrandAdvertisers: { params: brandParams, query: listBrandAdvertisersQuery, response: brandAdvertiserPageSchema },
  attachBrandAdvertiser: { params: brandParams, body: attachAdvertiserBody, response: brandAdvertiserSchema },
  detachBrandAdvertiser: { params: brandAdvertiserParams, response: advertiserDetachedSchema },
  listPersonas: { params: brandParams, query: listPersonasQuery, response: personaPageSchema },
  createPersona: { params: brandParams, body: createPersonaBody, response: personaSchema },
  getPersona: { params: personaParams, response: personaSchema },
  updatePersona: { params: personaParams, body: updatePersonaBody, response: personaSchema },
  deletePersona: { params: personaParams, query: deleteQuery, response: personaDeletedSchema },
  listDocuments: { params: brandDocumentParams, query: listDocumentsQuery, response: documentPageSchema },
  reserveDocument: { params: brandDocumentParams, body: reserveDocumentBody, response: reservedDocumentSchema },
  finalizeDocument: { params: documentParams, response: documentSchema, error: documentErrorBodySchema },
  getDocument: { params: documentParams, response: documentSchema },
  deleteDocument: { params: documentParams, response: documentDeletedSchema },

  // Campaign Plans and Line Items.
  listCampaignPlans: { query: listPlansQuery, response: planPageSchema },
  createCampaignPlan: { body: createPlanBody, response: planSchema },
  getCampaignPlan: { params: planParams, response: planSchema },
  updateCampaignPlan: { params: planParams, body: updatePlanBody, response: planSchema },
  deleteCampaignPlan: { params: planParams, query: deleteQuery, response: planDeletedSchema },
  approveCampaignPlan: { params: planParams, body: approvePlanBody, bodyOptional: true, response: planSchema },
  addLineItem: { params: planParams, body: addLineItemBody, response: lineItemSchema },
  updateLineItem: { params: lineItemParams, body: updateLineItemBody, response: lineItemSchema },
  deleteLineItem: { params: lineItemParams, query: deleteQuery, response: lineItemDeletedSchema },
  validateLineItem: { params: lineItemParams, response: validationSchema },
  getLineItemReadiness: { params: lineItemParams, response: readinessSchema },
  recordLineItemExecution: { params: lineItemParams, body: recordExecutionBody, response: executionSchema },

  // Assets.
  listAssets: { query: listAssetsQuery, response: assetPageSchema },
  reserveAssetUpload: { body: reserveAssetBody, response: reservedAssetSchema },
  finalizeAsset: { params: assetParams, response: assetSchema },
  getAsset: { params: assetParams, response: assetSchema },
  renameAsset: { params: assetParams, body: renameAssetBody, response: assetSchema },
  deleteAsset: { params: assetParams, query: deleteAssetQuery, response: assetDeletedSchema },
  registerAsset: { params: assetParams, body: registerAssetBody, response: assetRegistrationSchema },
} as const satisfies { readonly [K in OperationId]: OperationSchemas };

/** The schemas of an operation named by a string (undefined when the table has no such id). */
export function schemasOf(id: string): OperationSchemas | undefined {
  return isOperationId(id) ? OPERATION_SCHEMAS[id] : undefined;
}
