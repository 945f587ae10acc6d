// Routes of the Assets API (thin: parse, call the model, answer). The bytes do
// not pass here: they go to the uploadUrl served by routes/storage.ts.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../http/context.js';
import { operationRoute } from '../http/route.js';
import { deleteAsset, finalizeAsset, getAsset, listAssets, registerAsset, renameAsset, reserveAsset } from '../models/assets.js';
import { scopeOf } from './scope.js';

export function registerAssetsRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(
    operationRoute('listAssets', {
      responses: { 200: "A page of the organization's assets, newest first." },
      errors: ['invalid_cursor'],
    }),
    (c) => {
      return c.json(listAssets(scopeOf(c), c.req.valid('query')), 200);
    },
  );

  app.openapi(
    operationRoute('reserveAssetUpload', {
      responses: {
        201: 'The asset, reserved, with the URL to PUT its bytes to (no API key there) and when that URL expires.',
      },
      errors: ['too_large'],
    }),
    (c) => c.json(reserveAsset(scopeOf(c), c.req.valid('json')), 201),
  );

  app.openapi(
    operationRoute('finalizeAsset', {
      responses: { 200: 'The asset, ready: kind, mimeType, sizeBytes and image dimensions from its bytes.' },
      errors: ['not_found', 'upload_incomplete', 'too_large', 'type_mismatch', 'unreadable'],
    }),
    async (c) => c.json(await finalizeAsset(scopeOf(c), c.req.valid('param').id), 200),
  );

  app.openapi(
    operationRoute('getAsset', {
      responses: { 200: 'The asset.' },
      errors: ['not_found'],
    }),
    (c) => c.json(getAsset(scopeOf(c), c.req.valid('param').id), 200),
  );

  app.openapi(
    operationRoute('renameAsset', {
      responses: { 200: 'The asset as written, revision + 1.' },
      errors: ['not_found', 'revision_mismatch'],
    }),
    (c) => c.json(renameAsset(scopeOf(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );

  app.openapi(
    operationRoute('deleteAsset', {
      responses: { 200: 'Deleted, with its file and registrations.' },
      errors: ['not_found', 'revision_mismatch'],
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await deleteAsset(scopeOf(c), id, c.req.valid('query').revision);
      return c.json({ deleted: true as const, id }, 200);
    },
  );

  app.openapi(
    operationRoute('registerAsset', {
      responses: {
        201: 'Registered: the record with the id the provider gave the asset.',
        200: 'Already registered to this advertiser: the existing record.',
      },
      errors: ['not_found', 'advertiser_not_owned', 'asset_not_ready'],
    }),
    (c) => {
      const { registration, created } = registerAsset(scopeOf(c), c.req.valid('param').id, c.req.valid('json').advertiserId);
      return created ? c.json(registration, 201) : c.json(registration, 200);
    },
  );
}
