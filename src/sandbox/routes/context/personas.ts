// Routes of Personas (per Brand; the handle is the pair of slugs).
import type { OpenAPIHono } from '@hono/zod-openapi';
import {
  brandParams,
  createPersonaBody,
  deleteQuery,
  listPersonasQuery,
  personaDeletedSchema,
  personaPageSchema,
  personaParams,
  personaSchema,
  updatePersonaBody,
} from '../../../contract/schemas/context.js';
import type { AppEnv } from '../../http/context.js';
import { operationRoute } from '../../http/route.js';
import { getBrand } from '../../models/context/brands.js';
import { createPersona, deletePersona, getPersona, toPersona, updatePersona, listPersonas } from '../../models/context/personas.js';
import { scopeOf } from '../scope.js';

const personaJson = (description: string) => ({ description, schema: personaSchema });

export function registerPersonaRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(
    operationRoute('listPersonas', {
      request: { params: brandParams, query: listPersonasQuery },
      responses: { 200: { description: 'A page of the Brand’s Personas, newest first.', schema: personaPageSchema } },
      errors: ['not_found', 'invalid_cursor'],
    }),
    (c) => {
      const s = scopeOf(c);
      return c.json(listPersonas(s, getBrand(s, c.req.valid('param').slug), c.req.valid('query')), 200);
    },
  );

  app.openapi(
    operationRoute('createPersona', {
      request: { params: brandParams, body: createPersonaBody },
      responses: { 201: personaJson('The Persona, revision 1.') },
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
      request: { params: personaParams },
      responses: { 200: personaJson('The Persona.') },
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
      request: { params: personaParams, body: updatePersonaBody },
      responses: { 200: personaJson('The Persona as written, revision + 1.') },
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
      request: { params: personaParams, query: deleteQuery },
      responses: { 200: { description: 'Deleted.', schema: personaDeletedSchema } },
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
