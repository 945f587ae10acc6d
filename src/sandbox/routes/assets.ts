// Handlers of the Assets API (thin: parse, call the model, answer). The bytes do
// not pass here: they go to the uploadUrl served by routes/storage.ts.
import type { HandlerMap } from '../http/handler.js';
import { deleteAsset, finalizeAsset, getAsset, listAssets, registerAsset, renameAsset, reserveAsset } from '../models/assets.js';
import { scopeOf } from './scope.js';

export const ASSETS_HANDLERS = {
  listAssets: (c) => {
    return c.json(listAssets(scopeOf(c), c.req.valid('query')), 200);
  },

  reserveAssetUpload: (c) => c.json(reserveAsset(scopeOf(c), c.req.valid('json')), 201),

  finalizeAsset: async (c) => c.json(await finalizeAsset(scopeOf(c), c.req.valid('param').id), 200),

  getAsset: (c) => c.json(getAsset(scopeOf(c), c.req.valid('param').id), 200),

  renameAsset: (c) => c.json(renameAsset(scopeOf(c), c.req.valid('param').id, c.req.valid('json')), 200),

  deleteAsset: async (c) => {
    const { id } = c.req.valid('param');
    await deleteAsset(scopeOf(c), id, c.req.valid('query').revision);
    return c.json({ deleted: true as const, id }, 200);
  },

  registerAsset: (c) => {
    const { registration, created } = registerAsset(scopeOf(c), c.req.valid('param').id, c.req.valid('json').advertiserId);
    return created ? c.json(registration, 201) : c.json(registration, 200);
  },
} satisfies HandlerMap<'listAssets' | 'reserveAssetUpload' | 'finalizeAsset' | 'getAsset' | 'renameAsset' | 'deleteAsset' | 'registerAsset'>;
