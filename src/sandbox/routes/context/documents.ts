// Routes of Brand Documents: reserve → PUT bytes to uploadUrl (storage
// endpoint, not an operation) → finalize; get, list, delete.
import type { OpenAPIHono } from '@hono/zod-openapi';
import {
  brandDocumentParams,
  documentDeletedSchema,
  documentPageSchema,
  documentParams,
  documentSchema,
  listDocumentsQuery,
  reserveDocumentBody,
  reservedDocumentSchema,
} from '../../../contract/schemas/context.js';
import type { AppEnv } from '../../http/context.js';
import { operationRoute } from '../../http/route.js';
import { getBrand } from '../../models/context/brands.js';
import { deleteDocument, finalizeDocument, getDocument, reserveDocument, toDocument, listDocuments } from '../../models/context/documents.js';
import { scopeOf } from '../scope.js';

export function registerDocumentRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(
    operationRoute('listDocuments', {
      request: { params: brandDocumentParams, query: listDocumentsQuery },
      responses: { 200: { description: 'A page of the Brand’s documents, newest first.', schema: documentPageSchema } },
      errors: ['not_found', 'invalid_cursor'],
    }),
    (c) => {
      const s = scopeOf(c);
      return c.json(listDocuments(s, getBrand(s, c.req.valid('param').slug), c.req.valid('query')), 200);
    },
  );

  app.openapi(
    operationRoute('reserveDocument', {
      request: { params: brandDocumentParams, body: reserveDocumentBody },
      responses: {
        201: { description: 'The document in pending_upload, and the URL to PUT its bytes to (no API key there).', schema: reservedDocumentSchema },
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
      request: { params: documentParams },
      responses: { 200: { description: 'The document, ready (finalizing a ready document again answers it unchanged).', schema: documentSchema } },
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
      request: { params: documentParams },
      responses: { 200: { description: 'The document.', schema: documentSchema } },
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
      request: { params: documentParams },
      responses: { 200: { description: 'Deleted, with its stored file.', schema: documentDeletedSchema } },
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
