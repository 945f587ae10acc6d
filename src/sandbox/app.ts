// The sandbox's HTTP app: services and CORS on every request, one
// OpenAPIHono per API (its OpenAPI document comes from its routes), admin
// routes, the 404 for unknown paths and the one place failures are rendered.
import { OpenAPIHono } from '@hono/zod-openapi';
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { HTTPException } from 'hono/http-exception';
import { OPERATIONS } from '../contract/operations.js';
import type { ApiName } from '../contract/operations.js';
import type { AppEnv, SandboxServices } from './http/context.js';
import { fail } from './http/errors.js';
import { invalidRequest, ServiceError } from './models/errors.js';
import { cors } from './http/cors.js';
import { DEFAULT_CONSOLE_ORIGIN } from './services.js';
import { BEARER_SCHEME } from './http/route.js';
import { answerHeadersFromNode } from './http/headers.js';
import { httpLimits } from './http/limits.js';
import type { HttpLimits } from './http/limits.js';
import { validationHook } from './http/validation.js';
import { isOld, oldNotFound, oldValidationBody } from './http/generation.js';
import { registerAdminRoutes } from './routes/admin.js';
import { storedReadShortcut } from './routes/observe.js';
import { API_MIDDLEWARE, registerOperation } from './routes/handlers.js';
import { registerStorageRoutes } from './routes/storage.js';
import { SandboxRouter } from './http/router.js';

export interface AppOptions {
  /** The one browser origin allowed (spec: Authentication 2). */
  consoleOrigin?: string;
  /** Where unexpected errors are reported (default: stderr); the client only sees `internal`. */
  logError?: (err: unknown) => void;
  /** Bounds on one request's work (http/limits.ts); unset ones keep their defaults. */
  limits?: Partial<HttpLimits>;
  /** Extra routes outside the OpenAPI documents (tests mount probe operations here). */
  extraRoutes?: (app: OpenAPIHono<AppEnv>) => void;
}

export const API_NAMES: readonly ApiName[] = ['observe', 'mutations', 'context', 'assets'];

/** The sandbox's default address (DEFAULT_HOST:DEFAULT_PORT of index.ts), for a document built without a server. */
const DEFAULT_SERVER = '127.0.0.1:4010';

const API_TITLES: Record<ApiName, string> = {
  observe: 'Observe API: campaigns, ad groups, ads, creatives, asset groups and Insights',
  mutations: 'Mutations API: changes started on an advertiser',
  context: 'Context API: Skills, Brands, Personas, Documents, Campaign Plans and Line Items',
  assets: "Assets API: the organization's source images and videos",
};

export function newApiApp(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({
    // zod-openapi's type leaves out the data a failed result carries; validationHook reports it.
    defaultHook: (result, c) => validationHook({ ...result, data: 'data' in result ? result.data : undefined }, c),
  });
  app.openAPIRegistry.registerComponent('securitySchemes', BEARER_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key starting acr_, sent as "Authorization: Bearer <key>".',
  });
  return app;
}

/** The code of each framework refusal that keeps its status. */
const FRAMEWORK_REFUSALS: Partial<Record<number, string>> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  408: 'request_timeout',
  413: 'body_too_large',
};

/** Render any thrown value as the spec's failure body. */
export function toServiceError(err: unknown): ServiceError | null {
  if (err instanceof ServiceError) return err;
  if (err instanceof HTTPException) {
    // @hono/zod-openapi's media-type gate: a body with a missing or non-JSON Content-Type.
    if (err.status === 415) {
      return invalidRequest([{ in: 'headers', path: '/content-type', message: 'must be application/json' }]);
    }
    // hono's json validator on an empty body (a non-empty unparseable one was caught by jsonBody).
    if (err.status === 400) return invalidRequest([{ in: 'body', path: '', message: 'a JSON body is required' }]);
    // Any other framework refusal keeps its status with the code that status means.
    if (err.status < 500) {
      const code = FRAMEWORK_REFUSALS[err.status] ?? 'invalid_request';
      return code === 'invalid_request'
        ? invalidRequest([{ in: 'body', path: '', message: 'is not acceptable' }])
        : fail(code, 'The request was refused.', {}, err.status);
    }
    return null;
  }
  return null;
}

/** An OpenAPI 3.1 document as @hono/zod-openapi builds it. */
export type OpenApiDocument = ReturnType<OpenAPIHono['getOpenAPI31Document']>;

/** A status a JSON failure body can be sent with (ServiceError statuses are 4xx and 5xx). */
function isContentfulStatus(status: number): status is ContentfulStatusCode {
  return Number.isInteger(status) && status >= 200 && status <= 599 && status !== 204 && status !== 205 && status !== 304;
}

export interface BuiltApp {
  app: Hono<AppEnv>;
  /** OpenAPI 3.1 documents by API, plus 'combined'. Built on first use. */
  openapi(name: ApiName | 'combined'): OpenApiDocument;
}

export function buildApp(services: SandboxServices, options: AppOptions = {}): BuiltApp {
  const logError = options.logError ?? ((err: unknown) => console.error('adops sandbox: unexpected error:', err));
  // Routes are matched by http/router.ts: Hono's default falls back to its slower TrieRouter for good (#37).
  const app = new Hono<AppEnv>({ router: new SandboxRouter() });
  const limits = httpLimits(options.limits);

  app.use('*', (c, next) => {
    c.set('sandbox', services);
    c.set('limits', limits);
    answerHeadersFromNode(c);
    return next();
  });
  app.use('*', cors(options.consoleOrigin ?? DEFAULT_CONSOLE_ORIGIN));

  // One app per API (each publishes its own document), its middleware first; then every
  // operation of the table, in the table's order, on its API's app: the one place routes are registered.
  const apis: Record<ApiName, OpenAPIHono<AppEnv>> = { observe: newApiApp(), mutations: newApiApp(), context: newApiApp(), assets: newApiApp() };
  for (const name of API_NAMES) API_MIDDLEWARE[name]?.(apis[name]);
  for (const op of OPERATIONS) registerOperation(apis[op.api], op.id);
  // Mounted in API_NAMES order.
  for (const name of API_NAMES) app.route('/', apis[name]);
  const storage = newApiApp();
  registerStorageRoutes(storage);
  app.route('/', storage);
  if (options.extraRoutes) {
    const extra = newApiApp();
    options.extraRoutes(extra);
    app.route('/', extra);
  }
  registerAdminRoutes(app);

  const cache = new Map<string, OpenApiDocument>();
  const header = (title: string, names: readonly ApiName[]) => ({
    openapi: '3.1.0',
    info: { title, version: '1.0.0', description: 'Advertising Operations service interface, as served by the adops sandbox.' },
    // Built on first request, after listen(), so the address is the one this sandbox answers on.
    servers: [{ url: services.publicUrl() || `http://${DEFAULT_SERVER}`, description: 'This adops sandbox (the service itself: its {base_url}).' }],
    tags: names.map((name) => ({ name, description: API_TITLES[name] })),
  });
  const openapi = (name: ApiName | 'combined'): OpenApiDocument => {
    let doc = cache.get(name);
    if (!doc) {
      if (name === 'combined') {
        // A throwaway app that only gathers the four registries (route() copies them).
        const all = newApiApp();
        for (const n of API_NAMES) all.route('/', apis[n]);
        doc = all.getOpenAPI31Document(header('Advertising Operations service: Observe, Mutations, Context and Assets', API_NAMES));
      } else {
        doc = apis[name].getOpenAPI31Document(header(API_TITLES[name], [name]));
      }
      cache.set(name, doc);
    }
    return doc;
  };

  // Reading the descriptions needs no key (docs/decisions.md).
  app.get('/openapi.json', (c) => c.json(openapi('combined'), 200));
  app.get('/openapi/:file', (c) => {
    const file = c.req.param('file');
    const name = API_NAMES.find((n) => file === `${n}.json`);
    if (!name) return c.notFound();
    return c.json(openapi(name), 200);
  });

  app.notFound((c) => (isOld(c) ? oldNotFound(c) : notFound(c)));
  app.onError((err, c) => {
    const apiError = toServiceError(err) ?? internal(err, logError);
    // Before 2026-09-24 the framework answered a schema mismatch itself.
    if (isOld(c) && apiError.code === 'invalid_request') return c.json(oldValidationBody(apiError), 422);
    return c.json(apiError.toBody(), isContentfulStatus(apiError.status) ? apiError.status : 500);
  });

  // A repeated stored read answered before dispatch when its page is kept (routes/observe.ts, #16).
  const shortcut = storedReadShortcut(services);
  const dispatch = app.fetch;
  app.fetch = (request, env, executionCtx) => {
    const quick = shortcut(request, env !== undefined && 'incoming' in env ? env.incoming : undefined);
    if (quick === undefined) return dispatch(request, env, executionCtx);
    return quick instanceof Promise ? quick.then((res) => res ?? dispatch(request, env, executionCtx)) : quick;
  };
  return { app, openapi };
}

/** Unknown path or method. The spec: the answer never repeats what was sent, and the message
 * tells this 404 apart from a missing thing's (those name the kind of thing). */
export const NO_OPERATION_MESSAGE = 'No operation of this service answers this method and path.';

function notFound(c: Context): Response {
  return c.json({ error: 'not_found', message: NO_OPERATION_MESSAGE }, 404);
}

function internal(err: unknown, log: (err: unknown) => void): ServiceError {
  log(err);
  return fail('internal', 'The sandbox failed unexpectedly; this is a bug in the sandbox.', {}, 500);
}
