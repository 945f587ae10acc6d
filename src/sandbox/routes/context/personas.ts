// Handlers of Personas (per Brand; the handle is the pair of slugs).
import type { HandlerMap } from '../../http/handler.js';
import { getBrand } from '../../models/context/brands.js';
import { createPersona, deletePersona, getPersona, toPersona, updatePersona, listPersonas } from '../../models/context/personas.js';
import { scopeOf } from '../scope.js';

export const PERSONA_HANDLERS = {
  listPersonas: (c) => {
    const s = scopeOf(c);
    return c.json(listPersonas(s, getBrand(s, c.req.valid('param').slug), c.req.valid('query')), 200);
  },

  createPersona: (c) => {
    const s = scopeOf(c);
    const brand = getBrand(s, c.req.valid('param').slug);
    return c.json(toPersona(createPersona(s, brand, c.req.valid('json')), brand.slug), 201);
  },

  getPersona: (c) => {
    const { slug, personaSlug } = c.req.valid('param');
    const s = scopeOf(c);
    return c.json(toPersona(getPersona(s, getBrand(s, slug), personaSlug), slug), 200);
  },

  updatePersona: (c) => {
    const { slug, personaSlug } = c.req.valid('param');
    const s = scopeOf(c);
    return c.json(toPersona(updatePersona(s, getBrand(s, slug), personaSlug, c.req.valid('json')), slug), 200);
  },

  deletePersona: (c) => {
    const { slug, personaSlug } = c.req.valid('param');
    const s = scopeOf(c);
    deletePersona(s, getBrand(s, slug), personaSlug, c.req.valid('query').revision);
    return c.json({ deleted: true as const, brandSlug: slug, slug: personaSlug }, 200);
  },
} satisfies HandlerMap<'listPersonas' | 'createPersona' | 'getPersona' | 'updatePersona' | 'deletePersona'>;
