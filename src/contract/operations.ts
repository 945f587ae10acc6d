// The operation table: every operation of the spec's operation list, once.
// One source for routes (sandbox), subcommands (CLI), OpenAPI and the coverage
// tests. Plain data (no zod) so the CLI can read it on its fast path; the zod
// schemas of each operation live in ./schemas/<api>.ts keyed by `id`.
import type { Permission } from './ids.js';

export type ApiName = 'observe' | 'mutations' | 'context' | 'assets';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
/** What an operation does, so generic code (paging, confirmation prompts) can treat kinds alike. */
export type OperationKind = 'list' | 'get' | 'create' | 'update' | 'delete' | 'action';

export interface OperationDef {
  /** Stable operationId, also the OpenAPI operationId. */
  id: string;
  api: ApiName;
  method: HttpMethod;
  /** Path template with {param} segments, as in the spec. */
  path: string;
  permission: Permission;
  kind: OperationKind;
  summary: string;
  /** Observe: the path names the advertiser and the provider is asked now. */
  live?: boolean;
}

const op = (
  id: string, api: ApiName, method: HttpMethod, path: string, permission: Permission,
  kind: OperationKind, summary: string, live = false,
): OperationDef => ({ id, api, method, path, permission, kind, summary, ...(live ? { live } : {}) });

export const OPERATIONS: readonly OperationDef[] = [
  // Observe: stored reads (no advertiser segment) and live reads (advertiser in the path).
  op('listInsights', 'observe', 'GET', '/observe/insights', 'observe:read', 'list', 'Stored read of Insights'),
  op('listCampaigns', 'observe', 'GET', '/observe/campaigns', 'observe:read', 'list', 'Stored read of campaigns'),
  op('listLiveCampaigns', 'observe', 'GET', '/observe/{advertiserId}/campaigns', 'observe:read', 'list', "Live read of an advertiser's campaigns", true),
  op('getLiveCampaign', 'observe', 'GET', '/observe/{advertiserId}/campaigns/{id}', 'observe:read', 'get', 'Live read of one campaign', true),
  op('listAdGroups', 'observe', 'GET', '/observe/ad-groups', 'observe:read', 'list', 'Stored read of ad groups'),
  op('listLiveAdGroups', 'observe', 'GET', '/observe/{advertiserId}/ad-groups', 'observe:read', 'list', 'Live read of ad groups', true),
  op('getLiveAdGroup', 'observe', 'GET', '/observe/{advertiserId}/ad-groups/{id}', 'observe:read', 'get', 'Live read of one ad group', true),
  op('listAds', 'observe', 'GET', '/observe/ads', 'observe:read', 'list', 'Stored read of ads'),
  op('listLiveAds', 'observe', 'GET', '/observe/{advertiserId}/ads', 'observe:read', 'list', 'Live read of ads', true),
  op('getLiveAd', 'observe', 'GET', '/observe/{advertiserId}/ads/{id}', 'observe:read', 'get', 'Live read of one ad', true),
  op('listCreatives', 'observe', 'GET', '/observe/creatives', 'observe:read', 'list', 'Stored read of creatives'),
  op('listLiveCreatives', 'observe', 'GET', '/observe/{advertiserId}/creatives', 'observe:read', 'list', 'Live read of creatives', true),
  op('getLiveCreative', 'observe', 'GET', '/observe/{advertiserId}/creatives/{id}', 'observe:read', 'get', 'Live read of one creative', true),
  op('listAssetGroups', 'observe', 'GET', '/observe/asset-groups', 'observe:read', 'list', 'Stored read of asset groups'),
  op('listLiveAssetGroups', 'observe', 'GET', '/observe/{advertiserId}/asset-groups', 'observe:read', 'list', 'Live read of asset groups', true),
  op('getLiveAssetGroup', 'observe', 'GET', '/observe/{advertiserId}/asset-groups/{id}', 'observe:read', 'get', 'Live read of one asset group', true),

  // Mutations.
  op('listMutations', 'mutations', 'GET', '/mutations', 'mutation:read', 'list', 'List mutation history'),
  op('createMutation', 'mutations', 'POST', '/mutations', 'mutation:write', 'create', 'Start a mutation'),
  op('getMutation', 'mutations', 'GET', '/mutations/{id}', 'mutation:write', 'get', 'Read a mutation'),

  // Context: Skills and the Skill Catalog.
  op('listSkills', 'context', 'GET', '/context/skills', 'skill:read', 'list', 'List Skills'),
  op('createSkill', 'context', 'POST', '/context/skills', 'skill:write', 'create', 'Create a Skill'),
  op('getSkill', 'context', 'GET', '/context/skills/{slug}', 'skill:read', 'get', 'Get a Skill'),
  op('updateSkill', 'context', 'PATCH', '/context/skills/{slug}', 'skill:write', 'update', 'Update a Skill'),
  op('deleteSkill', 'context', 'DELETE', '/context/skills/{slug}', 'skill:write', 'delete', 'Delete a Skill'),
  op('reimportSkill', 'context', 'POST', '/context/skills/{slug}/re-import', 'skill:write', 'action', 'Re-import a Skill'),
  op('listSkillCatalog', 'context', 'GET', '/context/skill-catalog', 'skill:read', 'list', 'List the Skill Catalog'),
  op('importCatalogSkill', 'context', 'POST', '/context/skill-catalog/{catalogSlug}/import', 'skill:write', 'action', 'Import a Catalog Skill'),

  // Context: Brands, their advertisers, Personas and Documents.
  op('listBrands', 'context', 'GET', '/context/brands', 'brand:read', 'list', 'List Brands'),
  op('createBrand', 'context', 'POST', '/context/brands', 'brand:write', 'create', 'Create a Brand'),
  op('getBrand', 'context', 'GET', '/context/brands/{slug}', 'brand:read', 'get', 'Get a Brand'),
  op('updateBrand', 'context', 'PATCH', '/context/brands/{slug}', 'brand:write', 'update', 'Update a Brand'),
  op('deleteBrand', 'context', 'DELETE', '/context/brands/{slug}', 'brand:write', 'delete', 'Delete a Brand'),
  op('listBrandAdvertisers', 'context', 'GET', '/context/brands/{slug}/advertisers', 'brand:read', 'list', "List a Brand's advertisers"),
  op('attachBrandAdvertiser', 'context', 'POST', '/context/brands/{slug}/advertisers', 'brand:write', 'create', 'Attach an advertiser'),
  op('detachBrandAdvertiser', 'context', 'DELETE', '/context/brands/{slug}/advertisers/{advertiserId}', 'brand:write', 'delete', 'Detach an advertiser'),
  op('listPersonas', 'context', 'GET', '/context/brands/{slug}/personas', 'brand:read', 'list', 'List Personas'),
  op('createPersona', 'context', 'POST', '/context/brands/{slug}/personas', 'brand:write', 'create', 'Create a Persona'),
  op('getPersona', 'context', 'GET', '/context/brands/{slug}/personas/{personaSlug}', 'brand:read', 'get', 'Get a Persona'),
  op('updatePersona', 'context', 'PATCH', '/context/brands/{slug}/personas/{personaSlug}', 'brand:write', 'update', 'Update a Persona'),
  op('deletePersona', 'context', 'DELETE', '/context/brands/{slug}/personas/{personaSlug}', 'brand:write', 'delete', 'Delete a Persona'),
  op('listDocuments', 'context', 'GET', '/context/brands/{slug}/documents', 'brand:read', 'list', 'List documents'),
  op('reserveDocument', 'context', 'POST', '/context/brands/{slug}/documents', 'brand:write', 'create', 'Start a document upload (reserve)'),
  op('finalizeDocument', 'context', 'POST', '/context/brands/{slug}/documents/{documentId}/finalize', 'brand:write', 'action', 'Finalize a document upload'),
  op('getDocument', 'context', 'GET', '/context/brands/{slug}/documents/{documentId}', 'brand:read', 'get', 'Get a document'),
  op('deleteDocument', 'context', 'DELETE', '/context/brands/{slug}/documents/{documentId}', 'brand:write', 'delete', 'Delete a document'),

  // Context: Campaign Plans and Line Items.
  op('listCampaignPlans', 'context', 'GET', '/context/campaign-plans', 'campaign_plan:read', 'list', 'List Campaign Plans'),
  op('createCampaignPlan', 'context', 'POST', '/context/campaign-plans', 'campaign_plan:write', 'create', 'Create a Campaign Plan'),
  op('getCampaignPlan', 'context', 'GET', '/context/campaign-plans/{slug}', 'campaign_plan:read', 'get', 'Get a Campaign Plan'),
  op('updateCampaignPlan', 'context', 'PATCH', '/context/campaign-plans/{slug}', 'campaign_plan:write', 'update', 'Update a Campaign Plan'),
  op('deleteCampaignPlan', 'context', 'DELETE', '/context/campaign-plans/{slug}', 'campaign_plan:write', 'delete', 'Delete a Campaign Plan'),
  op('approveCampaignPlan', 'context', 'POST', '/context/campaign-plans/{slug}/approve', 'campaign_plan:write', 'action', 'Approve a Campaign Plan'),
  op('addLineItem', 'context', 'POST', '/context/campaign-plans/{slug}/line-items', 'campaign_plan:write', 'create', 'Add a Line Item'),
  op('updateLineItem', 'context', 'PATCH', '/context/campaign-plans/{slug}/line-items/{lineItemId}', 'campaign_plan:write', 'update', 'Update a Line Item'),
  op('deleteLineItem', 'context', 'DELETE', '/context/campaign-plans/{slug}/line-items/{lineItemId}', 'campaign_plan:write', 'delete', 'Delete a Line Item'),
  op('validateLineItem', 'context', 'POST', '/context/campaign-plans/{slug}/line-items/{lineItemId}/validate', 'campaign_plan:write', 'action', 'Validate a Line Item'),
  op('getLineItemReadiness', 'context', 'GET', '/context/campaign-plans/{slug}/line-items/{lineItemId}/readiness', 'campaign_plan:read', 'get', 'Check execution readiness'),
  op('recordLineItemExecution', 'context', 'POST', '/context/campaign-plans/{slug}/line-items/{lineItemId}/executions', 'campaign_plan:write', 'create', 'Record what a Line Item spawned'),

  // Assets.
  op('listAssets', 'assets', 'GET', '/assets', 'asset:read', 'list', "List the organization's Assets"),
  op('reserveAssetUpload', 'assets', 'POST', '/assets/uploads', 'asset:write', 'create', 'Reserve an Asset and mint an upload URL'),
  op('finalizeAsset', 'assets', 'POST', '/assets/{id}/finalize', 'asset:write', 'action', 'Finalize an uploaded Asset'),
  op('getAsset', 'assets', 'GET', '/assets/{id}', 'asset:read', 'get', 'Get one Asset'),
  op('renameAsset', 'assets', 'PATCH', '/assets/{id}', 'asset:write', 'update', 'Rename an Asset'),
  op('deleteAsset', 'assets', 'DELETE', '/assets/{id}', 'asset:write', 'delete', 'Delete an Asset'),
  op('registerAsset', 'assets', 'POST', '/assets/{id}/registrations', 'asset:write', 'create', 'Register an Asset to an advertiser'),
];

export const OPERATION_BY_ID: ReadonlyMap<string, OperationDef> = new Map(OPERATIONS.map((o) => [o.id, o]));

export function operation(id: string): OperationDef {
  const found = OPERATION_BY_ID.get(id);
  if (!found) throw new Error(`unknown operation id: ${id}`);
  return found;
}

/** Path params of a template, in order: '/a/{x}/b/{y}' -> ['x', 'y']. */
export function pathParams(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/**
 * Fill a template, percent-encoding each value so '../', '?' or '#' cannot
 * reach another path or query. encodeURIComponent leaves '.' alone, so an id
 * of '.' or '..' would be a dot segment (`GET /assets/..` is `GET /`): those
 * are sent as '%2E' and '%2E%2E', one literal segment.
 */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`missing path parameter: ${name}`);
    if (value === '.' || value === '..') return value.replace(/\./g, '%2E');
    return encodeURIComponent(value);
  });
}

/** The operation a method and concrete path name ('/assets/ast_1' -> getAsset), literal segments first. */
export function matchOperation(method: string, path: string): OperationDef | undefined {
  const segments = path.replace(/\/+$/, '').split('/');
  let best: { op: OperationDef; literals: number } | undefined;
  for (const op of OPERATIONS) {
    if (op.method !== method.toUpperCase()) continue;
    const template = op.path.split('/');
    if (template.length !== segments.length) continue;
    let literals = 0;
    const fits = template.every((t, i) => {
      if (t.startsWith('{')) return segments[i] !== '';
      literals++;
      return t === segments[i];
    });
    if (fits && (!best || literals > best.literals)) best = { op, literals };
  }
  return best?.op;
}
