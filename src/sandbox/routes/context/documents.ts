// Handlers of Brand Documents: reserve → PUT bytes to uploadUrl (storage
// endpoint, not an operation) → finalize; get, list, delete.
import type { HandlerMap } from '../../http/handler.js';
import { getBrand } from '../../models/context/brands.js';
import { deleteDocument, finalizeDocument, getDocument, reserveDocument, toDocument, listDocuments } from '../../models/context/documents.js';
import { scopeOf } from '../scope.js';

export const DOCUMENT_HANDLERS = {
  listDocuments: (c) => {
    const s = scopeOf(c);
    return c.json(listDocuments(s, getBrand(s, c.req.valid('param').slug), c.req.valid('query')), 200);
  },

  reserveDocument: (c) => {
    const s = scopeOf(c);
    const brand = getBrand(s, c.req.valid('param').slug);
    const { row, uploadUrl, uploadExpiresAt } = reserveDocument(s, brand, c.req.valid('json'));
    return c.json({ ...toDocument(row, brand.slug), uploadUrl, uploadExpiresAt }, 201);
  },

  finalizeDocument: async (c) => {
    const { slug, documentId } = c.req.valid('param');
    const s = scopeOf(c);
    const brand = getBrand(s, slug);
    return c.json(toDocument(await finalizeDocument(s, brand, documentId), slug), 200);
  },

  getDocument: (c) => {
    const { slug, documentId } = c.req.valid('param');
    const s = scopeOf(c);
    return c.json(toDocument(getDocument(s, getBrand(s, slug), documentId), slug), 200);
  },

  deleteDocument: async (c) => {
    const { slug, documentId } = c.req.valid('param');
    const s = scopeOf(c);
    await deleteDocument(s, getBrand(s, slug), documentId);
    return c.json({ deleted: true as const, brandSlug: slug, documentId }, 200);
  },
} satisfies HandlerMap<'listDocuments' | 'reserveDocument' | 'finalizeDocument' | 'getDocument' | 'deleteDocument'>;
