// Routes of Personas (per Brand; the handle is the pair of slugs).
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/context.js';
import { operationRoute } from '../../http/route.js';
import { getBrand } from '../../models/context/brands.js';
import { createPersona, deletePersona, getPersona, toPersona, updatePersona, listPersonas } from '../../models/context/personas.js';
import { scopeOf } from '../scope.js';

export function registerPersonaRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(
    operationRoute('listPersonas', {
      responses: { 200: 'A page of the Brand’s Personas, newest first.' },
      errors: ['not_found', 'invalid_cursor'],
    }),
    (c) => {
      const s = scopeOf(c);
      return c.json(listPersonas(s, getBrand(s, c.req.valid('param').slug), c.req.valid('query')), 200);
    },
  );

  app.openapi(
    operationRoute('createPersona', {
      responses: { 201: 'The Persona, revision 1.' },
      errors: ['not_found', 'invalid_slug', 'slug_conflict'],
    }),
    (c) => {
      const s = scopeOf(c);
      const brand = getBrand(s, c.req.valid('param').slug);
      return c.json(toPersona(createPersona(s, brand, c.req.valid('json')), brand.slug), 201);
    },
  );

  app.openapi(
    operationRoute('getPersona', {
      responses: { 200: 'The Persona.' },
      errors: ['not_found'],
    }),
    (c) => {
      const { slug, personaSlug } = c.req.valid('param');
      const s = scopeOf(c);
      return c.json(toPersona(getPersona(s, getBrand(s, slug), personaSlug), slug), 200);
    },
  );

  app.openapi(
    operationRoute('updatePersona', {
      responses: { 200: 'The Persona as written, revision + 1.' },
      errors: ['not_found', 'revision_mismatch'],
    }),
    (c) => {
      const { slug, personaSlug } = c.req.valid('param');
      const s = scopeOf(c);
      return c.json(toPersona(updatePersona(s, getBrand(s, slug), personaSlug, c.req.valid('json')), slug), 200);
    },
  );

  app.openapi(
    operationRoute('deletePersona', {
      responses: { 200: 'Deleted.' },
      errors: ['not_found', 'revision_mismatch'],
    }),
    (c) => {
      const { slug, personaSlug } = c.req.valid('param');
      const s = scopeOf(c);
      deletePersona(s, getBrand(s, slug), personaSlug, c.req.valid('query').revision);
      return c.json({ deleted: true as const, brandSlug: slug, slug: personaSlug }, 200);
    },
  );
}
