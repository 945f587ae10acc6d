// What a sandbox handler is: a function of one operation's route, its context
// typed by that operation's schemas (c.req.valid(…) is the validated input, and
// c.json(x, status) is checked against the statuses and body it declares).
import type { RouteHandler } from '@hono/zod-openapi';
import type { OperationId } from '../../contract/operations.js';
import type { AppEnv } from './context.js';
import type { OperationRoute } from './route.js';

export type Handler<K extends OperationId> = RouteHandler<OperationRoute<K>, AppEnv>;

/** The handlers of some operations, each typed by its own operation. */
export type HandlerMap<K extends OperationId> = { [Id in K]: Handler<Id> };
