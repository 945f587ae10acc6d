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
import { deleteDocument, DOCUMENTS_TABLE, finalizeDocument, getDocument, reserveDocument, toDocument } from '../../models/context/documents.js';
import type { DocumentRow } from '../../models/context/documents.js';
import { keysetPage } from '../../store/cursor.js';
import { documentDepsOf, scopeOf } from './scope.js';

export function registerDocumentRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(
    operationRoute('listDocuments', {
      request: { params: brandDocumentParams, query: listDocumentsQuery },
      responses: { 200: { description: 'A page of the Brand’s documents, newest first.', schema: documentPageSchema } },
      errors: ['not_found', 'invalid_cursor'],
    }),
    (c) => {
      const { slug } = c.req.valid('param');
      const brand = getBrand(scopeOf(c), slug);
      const { cursor, limit, ...rest } = c.req.valid('query');
      const { db, secret } = c.var.sandbox;
      return c.json(
        keysetPage<DocumentRow, ReturnType<typeof toDocument>>({
          db, secret, scope: 'listDocuments', filters: { ...rest, brand: slug }, cursor, limit,
          select: '*', from: DOCUMENTS_TABLE, seq: 'seq',
          where: ['brand_seq = @brand', rest.state ? 'state = @state' : null],
          params: { brand: brand.seq, state: rest.state },
          map: (r) => toDocument(r, slug),
        }),
        200,
      );
    },
  );

  app.openapi(
    operationRoute('reserveDocument', {
      request: { params: brandDocumentParams, body: reserveDocumentBody },
      responses: {
        201: { description: 'The document in pending_upload, and the URL to PUT its bytes to (no API key there).', schema: reservedDocumentSchema },
      },
      errors: ['not_found', 'unsupported_type'],
    }),
    (c) => {
      const s = scopeOf(c);
      const brand = getBrand(s, c.req.valid('param').slug);
      const { row, uploadUrl, uploadExpiresAt } = reserveDocument(s, documentDepsOf(c), brand, c.req.valid('json'));
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
      return c.json(toDocument(await finalizeDocument(s, documentDepsOf(c), brand, documentId), slug), 200);
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
      await deleteDocument(s, documentDepsOf(c), getBrand(s, slug), documentId);
      return c.json({ deleted: true as const, brandSlug: slug, documentId }, 200);
    },
  );
}
