// Per-request glue between Hono and the models: the caller (from the key) and
// the sandbox's services make the Scope every model takes first.
import type { Context } from 'hono';
import type { AppEnv } from '../http/context.js';
import { scopeFor } from '../models/scope.js';
import type { Scope } from '../models/scope.js';

export const scopeOf = (c: Context<AppEnv>): Scope => scopeFor(c.get('sandbox'), c.get('auth'));
