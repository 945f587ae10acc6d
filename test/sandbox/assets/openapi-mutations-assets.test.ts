// The OpenAPI descriptions of Mutations and Assets are complete: every
// operation with its request, its success response and each failure it sends.
import { expect, it } from 'vitest';
import { useTestSandbox } from '../../helpers/sandbox.js';

const sb = useTestSandbox();

const EXPECTED: Array<{ doc: string; path: string; method: string; body?: string; ok: string; schema: string; failures: Record<string, string[]> }> = [
  {
    doc: 'mutations',
    path: '/mutations',
    method: 'post',
    body: 'CreateMutation',
    ok: '202',
    schema: 'Mutation',
    failures: {
      403: ['forbidden', 'missing_write_access'],
      409: ['provider_not_connected'],
      422: ['advertiser_not_owned', 'invalid_amount', 'idempotency_key_reused'],
    },
  },
  { doc: 'mutations', path: '/mutations', method: 'get', ok: '200', schema: 'MutationPage', failures: { 400: ['invalid_request', 'invalid_cursor'] } },
  { doc: 'mutations', path: '/mutations/{id}', method: 'get', ok: '200', schema: 'Mutation', failures: { 404: ['not_found'] } },
  { doc: 'assets', path: '/assets', method: 'get', ok: '200', schema: 'AssetPage', failures: { 400: ['invalid_request', 'invalid_cursor'] } },
  { doc: 'assets', path: '/assets/uploads', method: 'post', body: 'ReserveAsset', ok: '201', schema: 'ReservedAsset', failures: { 413: ['too_large'] } },
  {
    doc: 'assets',
    path: '/assets/{id}/finalize',
    method: 'post',
    ok: '200',
    schema: 'Asset',
    failures: { 404: ['not_found'], 409: ['upload_incomplete'], 413: ['too_large'], 415: ['type_mismatch', 'unreadable'] },
  },
  { doc: 'assets', path: '/assets/{id}', method: 'get', ok: '200', schema: 'Asset', failures: { 404: ['not_found'] } },
  {
    doc: 'assets',
    path: '/assets/{id}',
    method: 'patch',
    body: 'RenameAsset',
    ok: '200',
    schema: 'Asset',
    failures: { 404: ['not_found'], 409: ['revision_mismatch'] },
  },
  { doc: 'assets', path: '/assets/{id}', method: 'delete', ok: '200', schema: 'AssetDeleted', failures: { 404: ['not_found'], 409: ['revision_mismatch'] } },
  {
    doc: 'assets',
    path: '/assets/{id}/registrations',
    method: 'post',
    body: 'RegisterAsset',
    ok: '201',
    schema: 'AssetRegistration',
    failures: { 404: ['not_found'], 409: ['asset_not_ready'], 422: ['advertiser_not_owned'] },
  },
];

it.each(EXPECTED)('$method $path documents its request, answer and failures', async ({ doc, path, method, body, ok, schema, failures }) => {
  const document = (await sb.req('GET', `/openapi/${doc}.json`)).body;
  const op = document.paths[path]?.[method];
  expect(op, `${method} ${path}`).toBeDefined();
  if (body) expect(op.requestBody.content['application/json'].schema.$ref).toBe(`#/components/schemas/${body}`);
  expect(op.responses[ok].content['application/json'].schema.$ref).toBe(`#/components/schemas/${schema}`);
  for (const status of ['400', '401', '402', '403']) expect(op.responses[status], status).toBeDefined();
  for (const [status, codes] of Object.entries(failures)) {
    for (const code of codes) expect(op.responses[status]?.description, `${status} ${code}`).toContain(`\`${code}\``);
  }
  expect(document.components.schemas[schema]).toBeDefined();
});

it('describes each mutation action as its own form', async () => {
  const document = (await sb.req('GET', '/openapi/mutations.json')).body;
  const forms = document.components.schemas.CreateMutation.oneOf ?? document.components.schemas.CreateMutation.anyOf;
  const actions = forms.map((f: { properties: { action: { enum: string[] } } }) => f.properties.action.enum[0]).sort();
  expect(actions).toEqual(['activate', 'archive', 'delete', 'pause', 'rename', 'set_bid', 'set_budget']);
  expect(document.components.schemas.Mutation.properties.state.enum).toEqual(['pending', 'running', 'succeeded', 'failed']);
});
