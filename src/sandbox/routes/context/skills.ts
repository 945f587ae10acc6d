// Handlers of Skills and the Skill Catalog (thin: parse, call the model, answer).
import type { HandlerMap } from '../../http/handler.js';
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

export const SKILL_HANDLERS = {
  listSkills: (c) => c.json(listSkills(scopeOf(c), c.req.valid('query')), 200),

  createSkill: (c) => c.json(toSkill(createSkill(scopeOf(c), c.req.valid('json'))), 201),

  getSkill: (c) => c.json(toSkill(getSkill(scopeOf(c), c.req.valid('param').slug)), 200),

  updateSkill: (c) => c.json(toSkill(updateSkill(scopeOf(c), c.req.valid('param').slug, c.req.valid('json'))), 200),

  deleteSkill: (c) => {
    const { slug } = c.req.valid('param');
    deleteSkill(scopeOf(c), slug, c.req.valid('query').revision);
    return c.json({ deleted: true as const, slug }, 200);
  },

  reimportSkill: (c) => {
    const body = c.req.valid('json') ?? {};
    return c.json(toSkill(reimportSkill(scopeOf(c), c.req.valid('param').slug, body.revision)), 200);
  },

  listSkillCatalog: (c) => c.json(listCatalog(scopeOf(c), c.req.valid('query')), 200),

  importCatalogSkill: (c) => {
    const body = c.req.valid('json') ?? {};
    return c.json(toSkill(importCatalogSkill(scopeOf(c), c.req.valid('param').catalogSlug, body.slug)), 201);
  },
} satisfies HandlerMap<'listSkills' | 'createSkill' | 'getSkill' | 'updateSkill' | 'deleteSkill' | 'reimportSkill' | 'listSkillCatalog' | 'importCatalogSkill'>;
