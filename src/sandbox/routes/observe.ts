// The Observe API: stored reads (no advertiser in the path; what ingestion
// stored), live reads (the advertiser in the path; the provider is asked now)
// and Insights. Thin handlers over ingest/stored-reads.ts, ingest/insights.ts
// and providers/live.ts; the nouns' observe blocks (src/contract/resources.ts) name the fifteen entity operations.
import type { IncomingMessage } from 'node:http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, TypedResponse } from 'hono';
import type { AppEnv, SandboxServices } from '../http/context.js';
import { authenticate } from '../http/auth.js';
import { headerOf } from '../http/headers.js';
import type { HandlerMap } from '../http/handler.js';
import { advanceDueSteps, settleDueSteps } from './mutations.js';
import { scopeOf } from './scope.js';
import { insightsPage } from '../ingest/insights.js';
import { storedPageBody, storedPageKey } from '../ingest/stored-reads.js';
import type { StoredQuery } from '../ingest/stored-reads.js';
import { OPERATION_TABLE } from '../../contract/operations.js';
import { observeBlocks, type ObserveBlock } from '../../contract/resources.js';
import { ProviderThrottled } from '../providers/faults.js';
import { liveGet, liveList } from '../providers/live.js';
import type { LiveQuery } from '../providers/live.js';
import type { EntityKind } from '../providers/types.js';

/** `ids=` with nothing in it filters on nothing. */
function withoutEmptyIds<T extends { ids?: string[] | undefined }>(q: T): Omit<T, 'ids'> & { ids?: string[] } {
  const { ids, ...rest } = q;
  return ids !== undefined && ids.length > 0 ? { ...rest, ids } : rest;
}

/** The Content-Type c.json sends, for bodies built as text. A fresh object each time: the node adapter may keep and extend it. */
const jsonType = () => ({ 'content-type': 'application/json' });

/**
 * A page of Observe rows, answered as the route documents it. The rows are built by the
 * provider adapters as plain records (or spliced from their stored text), not as the typed
 * row objects the page schema infers; the Observe tests check each row against that schema.
 */
function observePage<T>(res: Response): Response & TypedResponse<T, 200, 'json'> {
  return res as Response & TypedResponse<T, 200, 'json'>;
}

/** The Observe entities' operations, as their nouns declare them (src/contract/resources.ts). */
type StoredId = ObserveBlock['stored'];
type LiveId = ObserveBlock['live'];
type GetId = ObserveBlock['get'];

/** What runs before every Observe route: the due steps, and Retry-After on a throttled provider. */
export function useObserveMiddleware(app: OpenAPIHono<AppEnv>): void {
  // A mutation applied at its due time shows in a live read that comes after it.
  app.use('/observe/*', advanceDueSteps);
  // A throttled provider: say when to retry (the error body is rendered by the app's onError before this runs on).
  app.use('/observe/*', async (c, next) => {
    await next();
    if (c.error instanceof ProviderThrottled) c.header('Retry-After', String(c.error.retryAfterSeconds));
  });
}

/** A stored list: rows are stored serialized, so the page is spliced bytes (kept until the store changes), not c.json of parsed rows. */
function storedPage(c: Context<AppEnv>, kind: EntityKind, id: StoredId, query: Omit<StoredQuery, 'ids'> & { ids?: string[] | undefined }): Response {
  return c.body(storedPageBody(scopeOf(c), kind, id, withoutEmptyIds(query), searchOf(c.req.url)), 200, jsonType());
}

/** A live list: the advertiser's rows as the provider answers now, in its own order. */
async function livePage(
  c: Context<AppEnv>,
  kind: EntityKind,
  id: LiveId,
  advertiserId: string,
  query: Omit<LiveQuery, 'ids'> & { ids?: string[] | undefined },
): Promise<Response> {
  return c.json(await liveList(scopeOf(c), advertiserId, kind, id, withoutEmptyIds(query)), 200);
}

/** A live get: the provider's own payload. */
const liveOne = (c: Context<AppEnv>, kind: EntityKind, params: { advertiserId: string; id: string }) =>
  liveGet(scopeOf(c), params.advertiserId, kind, params.id);

export const OBSERVE_HANDLERS = {
  listInsights: (c) => c.json(insightsPage(scopeOf(c), c.req.valid('query')), 200),
  listCampaigns: (c) => observePage(storedPage(c, 'campaign', 'listCampaigns', c.req.valid('query'))),
  listLiveCampaigns: async (c) => observePage(await livePage(c, 'campaign', 'listLiveCampaigns', c.req.valid('param').advertiserId, c.req.valid('query'))),
  getLiveCampaign: async (c) => c.json(await liveOne(c, 'campaign', c.req.valid('param')), 200),
  listAdGroups: (c) => observePage(storedPage(c, 'ad_group', 'listAdGroups', c.req.valid('query'))),
  listLiveAdGroups: async (c) => observePage(await livePage(c, 'ad_group', 'listLiveAdGroups', c.req.valid('param').advertiserId, c.req.valid('query'))),
  getLiveAdGroup: async (c) => c.json(await liveOne(c, 'ad_group', c.req.valid('param')), 200),
  listAds: (c) => observePage(storedPage(c, 'ad', 'listAds', c.req.valid('query'))),
  listLiveAds: async (c) => observePage(await livePage(c, 'ad', 'listLiveAds', c.req.valid('param').advertiserId, c.req.valid('query'))),
  getLiveAd: async (c) => c.json(await liveOne(c, 'ad', c.req.valid('param')), 200),
  listCreatives: (c) => observePage(storedPage(c, 'creative', 'listCreatives', c.req.valid('query'))),
  listLiveCreatives: async (c) => observePage(await livePage(c, 'creative', 'listLiveCreatives', c.req.valid('param').advertiserId, c.req.valid('query'))),
  getLiveCreative: async (c) => c.json(await liveOne(c, 'creative', c.req.valid('param')), 200),
  listAssetGroups: (c) => observePage(storedPage(c, 'asset_group', 'listAssetGroups', c.req.valid('query'))),
  listLiveAssetGroups: async (c) =>
    observePage(await livePage(c, 'asset_group', 'listLiveAssetGroups', c.req.valid('param').advertiserId, c.req.valid('query'))),
  getLiveAssetGroup: async (c) => c.json(await liveOne(c, 'asset_group', c.req.valid('param')), 200),
} satisfies HandlerMap<'listInsights' | StoredId | LiveId | GetId>;

/** A request URL's query as sent (`?…`), or '' (the key of a kept stored page). */
const searchOf = (url: string) => {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at);
};

/**
 * A stored read whose page is kept, answered before the app dispatches it (#16): the same
 * checks, in the same order, with the same outcome, at a fraction of the cost. It applies
 * only to a GET of a stored list with no Origin (CORS leaves those untouched) on a sandbox
 * serving today's behaviour. Due mutation steps are taken first, as the Observe routes do;
 * then the key is checked for the operation's permission (authenticate, as authorize does);
 * then a page is answered only if one is kept for this operation, organization and query
 * text: it was made by the route after that very query text passed validation, and kept
 * only while the store is unchanged. Anything else — a key that fails, nothing kept — is
 * `undefined` (at once, or from the promise when due steps were taken first), and the app
 * answers the request from the start, as if this had not run.
 */
export function storedReadShortcut(
  services: SandboxServices,
): (request: Request, incoming: IncomingMessage | undefined) => Response | Promise<Response | undefined> | undefined {
  const operations = new Map<string, StoredId>(observeBlocks().map((r) => [OPERATION_TABLE[r.stored].path, r.stored]));
  return (request, incoming) => {
    if (request.method !== 'GET' || services.settings.before20260924 === true) return undefined;
    // Nothing kept (every write empties the cache: a CI job's write-then-read): the app answers, and the due
    // steps and the key are taken once, there, not here first as well (#27, bench/sandbox-mixed.js).
    if (services.storedPages.holdsNothing) return undefined;
    const url = request.url;
    const search = searchOf(url);
    const pathStart = url.indexOf('/', url.indexOf('//') + 2);
    const operation = operations.get(url.slice(pathStart, url.length - search.length));
    if (operation === undefined || headerOf(request, incoming, 'origin') !== undefined) return undefined;
    const answer = (): Response | undefined => {
      const header = headerOf(request, incoming, 'authorization');
      const permission = OPERATION_TABLE[operation].permission;
      const now = services.clock.now();
      // The key as it resolved while the store was as it is now (see PageCache.keptRead), else looked up.
      let body: Uint8Array<ArrayBuffer> | undefined;
      try {
        body = services.storedPages.keptRead(
          `${permission} ${header ?? ''}`,
          now,
          (orgId) => storedPageKey(operation, orgId, search),
          () => authenticate(services.db, now, header, permission),
        );
      } catch {
        return undefined;
      }
      return body && new Response(body, { status: 200, headers: jsonType() });
    };
    // No step due and no pass under way: nothing to wait for, the answer is given at once (#27).
    return services.mutations.idle ? answer() : settleDueSteps(services).then(answer);
  };
}
