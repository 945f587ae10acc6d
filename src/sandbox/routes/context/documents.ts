// Routes of Brand Documents: reserve → PUT bytes to uploadUrl (storage
// endpoint, not an operation) → finalize; get, list, delete.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/context.js';
import { operationRoute } from '../../http/route.js';
import { getBrand } from '../../models/context/brands.js';
import { deleteDocument, finalizeDocument, getDocument, reserveDocument, toDocument, listDocuments } from '../../models/context/documents.js';
import { scopeOf } from '../scope.js';

export function registerDocumentRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(
    operationRoute('listDocuments', {
      responses: { 200: 'A page of the Brand’s documents, newest first.' },
      errors: ['not_found', 'invalid_cursor'],
    }),
    (c) => {
      const s = scopeOf(c);
      return c.json(listDocuments(s, getBrand(s, c.req.valid('param').slug), c.req.valid('query')), 200);
    },
  );

  app.openapi(
    operationRoute('reserveDocument', {
      responses: {
        201: 'The document in pending_upload, and the URL to PUT its bytes to (no API key there).',
      },
      errors: ['not_found', 'unsupported_type', 'too_large'],
    }),
    (c) => {
      const s = scopeOf(c);
      const brand = getBrand(s, c.req.valid('param').slug);
      const { row, uploadUrl, uploadExpiresAt } = reserveDocument(s, brand, c.req.valid('json'));
      return c.json({ ...toDocument(row, brand.slug), uploadUrl, uploadExpiresAt }, 201);
    },
  );

  app.openapi(
    operationRoute('finalizeDocument', {
      responses: { 200: 'The document, ready (finalizing a ready document again answers it unchanged).' },
      errors: ['not_found', 'upload_incomplete', 'too_large', 'unsupported_type'],
    }),
    async (c) => {
      const { slug, documentId } = c.req.valid('param');
      const s = scopeOf(c);
      const brand = getBrand(s, slug);
      return c.json(toDocument(await finalizeDocument(s, brand, documentId), slug), 200);
    },
  );

  app.openapi(
    operationRoute('getDocument', {
      responses: { 200: 'The document.' },
      errors: ['not_found'],
    }),
    (c) => {
      const { slug, documentId } = c.req.valid('param');
      const s = scopeOf(c);
      return c.json(toDocument(getDocument(s, getBrand(s, slug), documentId), slug), 200);
    },
  );

  app.openapi(
    operationRoute('deleteDocument', {
      responses: { 200: 'Deleted, with its stored file.' },
      errors: ['not_found'],
    }),
    async (c) => {
      const { slug, documentId } = c.req.valid('param');
      const s = scopeOf(c);
      await deleteDocument(s, getBrand(s, slug), documentId);
      return c.json({ deleted: true as const, brandSlug: slug, documentId }, 200);
    },
  );
}
