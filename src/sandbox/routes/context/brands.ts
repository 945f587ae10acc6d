// Routes of Brands and the advertisers attached to them.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/context.js';
import { operationRoute } from '../../http/route.js';
import { attachAdvertiser, detachAdvertiser, toBrandAdvertiser, listBrandAdvertisers } from '../../models/context/brand-advertisers.js';
import { createBrand, deleteBrand, getBrand, toBrand, updateBrand, listBrands } from '../../models/context/brands.js';
import { discardDocumentFiles } from '../../models/context/documents.js';
import { scopeOf } from '../scope.js';

export function registerBrandRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(
    operationRoute('listBrands', {
      responses: { 200: 'A page of Brands, newest first: name, description, logo and which sections carry prose.' },
      errors: ['invalid_cursor'],
    }),
    (c) => c.json(listBrands(scopeOf(c), c.req.valid('query')), 200),
  );

  app.openapi(
    operationRoute('createBrand', {
      responses: { 201: 'The Brand, revision 1.' },
      errors: ['invalid_slug', 'slug_conflict'],
    }),
    (c) => c.json(toBrand(createBrand(scopeOf(c), c.req.valid('json'))), 201),
  );

  app.openapi(
    operationRoute('getBrand', {
      responses: { 200: 'The Brand with all four sections.' },
      errors: ['not_found'],
    }),
    (c) => c.json(toBrand(getBrand(scopeOf(c), c.req.valid('param').slug)), 200),
  );

  app.openapi(
    operationRoute('updateBrand', {
      responses: { 200: 'The Brand as written, revision + 1.' },
      errors: ['not_found', 'revision_mismatch'],
    }),
    (c) => c.json(toBrand(updateBrand(scopeOf(c), c.req.valid('param').slug, c.req.valid('json'))), 200),
  );

  app.openapi(
    operationRoute('deleteBrand', {
      responses: { 200: 'Deleted, with its Personas, Documents (and their files) and advertiser attachments.' },
      errors: ['not_found', 'revision_mismatch'],
    }),
    async (c) => {
      const { slug } = c.req.valid('param');
      const s = scopeOf(c);
      const gone = deleteBrand(s, slug, c.req.valid('query').revision);
      await discardDocumentFiles(s, gone.documentUploads);
      return c.json({ deleted: true as const, slug, personasDeleted: gone.personasDeleted, documentsDeleted: gone.documentsDeleted }, 200);
    },
  );

  app.openapi(
    operationRoute('listBrandAdvertisers', {
      responses: { 200: 'Advertisers attached to the Brand, last attached first.' },
      errors: ['not_found', 'invalid_cursor'],
    }),
    (c) => {
      const s = scopeOf(c);
      return c.json(listBrandAdvertisers(s, getBrand(s, c.req.valid('param').slug), c.req.valid('query')), 200);
    },
  );

  app.openapi(
    operationRoute('attachBrandAdvertiser', {
      responses: {
        201: 'Attached.',
        200: 'Already attached: the existing attachment, unchanged.',
      },
      errors: ['not_found', 'advertiser_not_owned'],
    }),
    (c) => {
      const s = scopeOf(c);
      const brand = getBrand(s, c.req.valid('param').slug);
      const { row, created } = attachAdvertiser(s, brand, c.req.valid('json').advertiserId);
      return created ? c.json(toBrandAdvertiser(row), 201) : c.json(toBrandAdvertiser(row), 200);
    },
  );

  app.openapi(
    operationRoute('detachBrandAdvertiser', {
      responses: { 200: 'Detached.' },
      errors: ['not_found'],
    }),
    (c) => {
      const { slug, advertiserId } = c.req.valid('param');
      const s = scopeOf(c);
      detachAdvertiser(s, getBrand(s, slug), advertiserId);
      return c.json({ deleted: true as const, slug, advertiserId }, 200);
    },
  );
}
