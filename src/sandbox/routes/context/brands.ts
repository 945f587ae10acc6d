// Handlers of Brands and the advertisers attached to them.
import type { HandlerMap } from '../../http/handler.js';
import { attachAdvertiser, detachAdvertiser, toBrandAdvertiser, listBrandAdvertisers } from '../../models/context/brand-advertisers.js';
import { createBrand, deleteBrand, getBrand, toBrand, updateBrand, listBrands } from '../../models/context/brands.js';
import { discardDocumentFiles } from '../../models/context/documents.js';
import { scopeOf } from '../scope.js';

export const BRAND_HANDLERS = {
  listBrands: (c) => c.json(listBrands(scopeOf(c), c.req.valid('query')), 200),

  createBrand: (c) => c.json(toBrand(createBrand(scopeOf(c), c.req.valid('json'))), 201),

  getBrand: (c) => c.json(toBrand(getBrand(scopeOf(c), c.req.valid('param').slug)), 200),

  updateBrand: (c) => c.json(toBrand(updateBrand(scopeOf(c), c.req.valid('param').slug, c.req.valid('json'))), 200),

  deleteBrand: async (c) => {
    const { slug } = c.req.valid('param');
    const s = scopeOf(c);
    const gone = deleteBrand(s, slug, c.req.valid('query').revision);
    await discardDocumentFiles(s, gone.documentUploads);
    return c.json({ deleted: true as const, slug, personasDeleted: gone.personasDeleted, documentsDeleted: gone.documentsDeleted }, 200);
  },

  listBrandAdvertisers: (c) => {
    const s = scopeOf(c);
    return c.json(listBrandAdvertisers(s, getBrand(s, c.req.valid('param').slug), c.req.valid('query')), 200);
  },

  attachBrandAdvertiser: (c) => {
    const s = scopeOf(c);
    const brand = getBrand(s, c.req.valid('param').slug);
    const { row, created } = attachAdvertiser(s, brand, c.req.valid('json').advertiserId);
    return created ? c.json(toBrandAdvertiser(row), 201) : c.json(toBrandAdvertiser(row), 200);
  },

  detachBrandAdvertiser: (c) => {
    const { slug, advertiserId } = c.req.valid('param');
    const s = scopeOf(c);
    detachAdvertiser(s, getBrand(s, slug), advertiserId);
    return c.json({ deleted: true as const, slug, advertiserId }, 200);
  },
} satisfies HandlerMap<
  'listBrands' | 'createBrand' | 'getBrand' | 'updateBrand' | 'deleteBrand' | 'listBrandAdvertisers' | 'attachBrandAdvertiser' | 'detachBrandAdvertiser'
>;
