// The Context API: Skills and the Skill Catalog, Brands (with their
// advertisers, Personas and Documents), Campaign Plans and Line Items.
// Handlers are thin; the state lives in models/context (no HTTP there).
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../http/context.js';
import { registerBrandRoutes } from './context/brands.js';
import { registerDocumentRoutes } from './context/documents.js';
import { registerLineItemRoutes } from './context/line-items.js';
import { registerPersonaRoutes } from './context/personas.js';
import { registerPlanRoutes } from './context/plans.js';
import { registerSkillRoutes } from './context/skills.js';

export function registerContextRoutes(app: OpenAPIHono<AppEnv>): void {
  registerSkillRoutes(app);
  registerBrandRoutes(app);
  registerPersonaRoutes(app);
  registerDocumentRoutes(app);
  registerPlanRoutes(app);
  registerLineItemRoutes(app);
}
