// The Assets API, operation by operation: the organization's source images and videos.
// Each entry is the whole operation as plain data (no zod, so the CLI's fast paths can read it):
// method, path, permission, kind, summary, each 2xx status with what it means, and the error
// codes it adds to the common ones. Its request and response schemas are in ./assets.schemas.ts.
import type { OperationSpec } from './spec.js';

export const ASSETS_OPERATIONS = {
  listAssets: {
    api: 'assets',
    method: 'GET',
    path: '/assets',
    permission: 'asset:read',
    kind: 'list',
    summary: "List the organization's Assets",
    responses: { 200: "A page of the organization's assets, newest first." },
    errors: ['invalid_cursor'],
  },
  reserveAssetUpload: {
    api: 'assets',
    method: 'POST',
    path: '/assets/uploads',
    permission: 'asset:write',
    kind: 'create',
    summary: 'Reserve an Asset and mint an upload URL',
    responses: { 201: 'The asset, reserved, with the URL to PUT its bytes to (no API key there) and when that URL expires.' },
    errors: ['too_large'],
  },
  finalizeAsset: {
    api: 'assets',
    method: 'POST',
    path: '/assets/{id}/finalize',
    permission: 'asset:write',
    kind: 'action',
    summary: 'Finalize an uploaded Asset',
    responses: { 200: 'The asset, ready: kind, mimeType, sizeBytes and image dimensions from its bytes.' },
    errors: ['not_found', 'upload_incomplete', 'too_large', 'type_mismatch', 'unreadable'],
  },
  getAsset: {
    api: 'assets',
    method: 'GET',
    path: '/assets/{id}',
    permission: 'asset:read',
    kind: 'get',
    summary: 'Get one Asset',
    responses: { 200: 'The asset.' },
    errors: ['not_found'],
  },
  renameAsset: {
    api: 'assets',
    method: 'PATCH',
    path: '/assets/{id}',
    permission: 'asset:write',
    kind: 'update',
    summary: 'Rename an Asset',
    responses: { 200: 'The asset as written, revision + 1.' },
    errors: ['not_found', 'revision_mismatch'],
  },
  deleteAsset: {
    api: 'assets',
    method: 'DELETE',
    path: '/assets/{id}',
    permission: 'asset:write',
    kind: 'delete',
    summary: 'Delete an Asset',
    responses: { 200: 'Deleted, with its file and registrations.' },
    errors: ['not_found', 'revision_mismatch'],
  },
  registerAsset: {
    api: 'assets',
    method: 'POST',
    path: '/assets/{id}/registrations',
    permission: 'asset:write',
    kind: 'create',
    summary: 'Register an Asset to an advertiser',
    responses: { 200: 'Already registered to this advertiser: the existing record.', 201: 'Registered: the record with the id the provider gave the asset.' },
    errors: ['not_found', 'asset_not_ready', 'advertiser_not_owned'],
  },
} as const satisfies Record<string, OperationSpec>;
