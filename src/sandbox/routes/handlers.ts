// Every operation's handler, by operation id. The satisfies clause is the
// check that the sandbox answers every operation of the table: an operation
// without a handler, or a handler for an id the table lacks, does not compile.
// The routes themselves (method, path, statuses, errors, schemas) come from the
// operation modules; app.ts registers them all in one loop (registerOperations).
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ApiName, OperationId } from '../../contract/operations.js';
import type { AppEnv } from '../http/context.js';
import type { HandlerMap } from '../http/handler.js';
import { operationRoute } from '../http/route.js';
import { ASSETS_HANDLERS } from './assets.js';
import { BRAND_HANDLERS } from './context/brands.js';
import { DOCUMENT_HANDLERS } from './context/documents.js';
import { LINE_ITEM_HANDLERS } from './context/line-items.js';
import { PERSONA_HANDLERS } from './context/personas.js';
import { PLAN_HANDLERS } from './context/plans.js';
import { SKILL_HANDLERS } from './context/skills.js';
import { MUTATIONS_HANDLERS, useMutationsMiddleware } from './mutations.js';
import { OBSERVE_HANDLERS, useObserveMiddleware } from './observe.js';

export const HANDLERS = {
  ...OBSERVE_HANDLERS,
  ...MUTATIONS_HANDLERS,
  ...SKILL_HANDLERS,
  ...BRAND_HANDLERS,
  ...PERSONA_HANDLERS,
  ...DOCUMENT_HANDLERS,
  ...PLAN_HANDLERS,
  ...LINE_ITEM_HANDLERS,
  ...ASSETS_HANDLERS,
} satisfies HandlerMap<OperationId>;

/** What runs before an API's routes (registered first, so it wraps them all). */
export const API_MIDDLEWARE: Partial<Record<ApiName, (app: OpenAPIHono<AppEnv>) => void>> = {
  observe: useObserveMiddleware,
  mutations: useMutationsMiddleware,
};

const handlers: HandlerMap<OperationId> = HANDLERS;

/** One operation's route, from its module, with its handler. */
export function registerOperation<K extends OperationId>(app: OpenAPIHono<AppEnv>, id: K): void {
  app.openapi(operationRoute(id), handlers[id]);
}
