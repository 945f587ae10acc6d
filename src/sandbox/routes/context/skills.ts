// Routes of Skills and the Skill Catalog (thin: parse, call the model, answer).
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/context.js';
import { operationRoute } from '../../http/route.js';
import {
  createSkill,
  deleteSkill,
  getSkill,
  importCatalogSkill,
  reimportSkill,
  toSkill,
  updateSkill,
  listSkills,
  listCatalog,
} from '../../models/context/skills.js';
import { scopeOf } from '../scope.js';

export function registerSkillRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(
    operationRoute('listSkills', {
      responses: { 200: 'A page of Skills, newest first (no bodies).' },
      errors: ['invalid_cursor'],
    }),
    (c) => c.json(listSkills(scopeOf(c), c.req.valid('query')), 200),
  );

  app.openapi(
    operationRoute('createSkill', {
      responses: { 201: 'The Skill, revision 1.' },
      errors: ['invalid_slug', 'slug_conflict'],
    }),
    (c) => c.json(toSkill(createSkill(scopeOf(c), c.req.valid('json'))), 201),
  );

  app.openapi(
    operationRoute('getSkill', {
      responses: { 200: 'The Skill.' },
      errors: ['not_found'],
    }),
    (c) => c.json(toSkill(getSkill(scopeOf(c), c.req.valid('param').slug)), 200),
  );

  app.openapi(
    operationRoute('updateSkill', {
      responses: { 200: 'The Skill as written, revision + 1.' },
      errors: ['not_found', 'revision_mismatch'],
    }),
    (c) => c.json(toSkill(updateSkill(scopeOf(c), c.req.valid('param').slug, c.req.valid('json'))), 200),
  );

  app.openapi(
    operationRoute('deleteSkill', {
      responses: { 200: 'Deleted.' },
      errors: ['not_found', 'revision_mismatch'],
    }),
    (c) => {
      const { slug } = c.req.valid('param');
      deleteSkill(scopeOf(c), slug, c.req.valid('query').revision);
      return c.json({ deleted: true as const, slug }, 200);
    },
  );

  app.openapi(
    operationRoute('reimportSkill', {
      responses: { 200: 'The Skill refreshed to the catalog entry’s current version.' },
      errors: ['not_found', 'revision_mismatch', 'not_imported', 'catalog_entry_missing'],
    }),
    (c) => {
      const body = c.req.valid('json') ?? {};
      return c.json(toSkill(reimportSkill(scopeOf(c), c.req.valid('param').slug, body.revision)), 200);
    },
  );

  app.openapi(
    operationRoute('listSkillCatalog', {
      responses: { 200: 'The Skill Catalog, in the service’s order.' },
      errors: ['invalid_cursor'],
    }),
    (c) => c.json(listCatalog(scopeOf(c), c.req.valid('query')), 200),
  );

  app.openapi(
    operationRoute('importCatalogSkill', {
      responses: { 201: 'The new Skill, source catalog.' },
      errors: ['not_found', 'invalid_slug', 'slug_conflict'],
    }),
    (c) => {
      const body = c.req.valid('json') ?? {};
      return c.json(toSkill(importCatalogSkill(scopeOf(c), c.req.valid('param').catalogSlug, body.slug)), 201);
    },
  );
}
