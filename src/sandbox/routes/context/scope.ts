// Per-request glue between Hono and the context models: who is asking (the
// organization scopes every query) and the services the models need.
import type { Context } from 'hono';
import type { AppEnv } from '../../http/context.js';
import { skillCatalog } from '../../models/context/catalog.js';
import { documentLimits } from '../../models/context/document-types.js';
import type { DocumentDeps } from '../../models/context/documents.js';
import type { ContextScope } from '../../models/context/scope.js';

export function scopeOf(c: Context<AppEnv>): ContextScope {
  const { db, clock } = c.var.sandbox;
  return { db, orgId: c.var.auth.orgId, now: () => clock.now() };
}

export function documentDepsOf(c: Context<AppEnv>): DocumentDeps {
  const services = c.var.sandbox;
  return { files: services.files, secret: services.secret, publicUrl: services.publicUrl(), limits: documentLimits(services.settings) };
}

export const catalogOf = (c: Context<AppEnv>) => skillCatalog(c.var.sandbox.settings);
