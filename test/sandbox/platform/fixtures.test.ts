// Fixture files: validated by the zod world schema (errors name the field, the
// server does not start), the demo world covers every auth failure, and
// docs/fixtures.schema.json is the schema generated from the same zod schema.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FixtureError, readKeys, startSandbox } from '../../../src/sandbox/index.js';
import { DEMO_KEYS, demoPlatformInput, demoWorld, demoWorldInput } from '../../../src/sandbox/fixtures/demo.js';
import { fixturesJsonSchemaText } from '../../../src/sandbox/fixtures/json-schema.js';
import { parseWorld } from '../../../src/sandbox/fixtures/load.js';
import { ENTITY_PROVIDERS } from '../../../src/contract/ids.js';
import { minimalWorld, request } from '../../helpers/sandbox.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: InstanceType<typeof Ajv2020>) => void;
import { registerProbeRoutes } from './probe-routes.js';
import { tempDir } from '../../helpers/temp.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../../docs/fixtures.schema.json', import.meta.url));

function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = tempDir('adops-fixtures-test-');
  return fn(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

describe('a bad fixture file', () => {
  it('stops the start with an error naming each bad field (JSON Pointer), and creates no store', () =>
    withTempDir(async (dir) => {
      const world = minimalWorld() as any;
      world.apiKeys[0].key = 'sk_wrong_prefix_0001';
      world.members[0].role = 'superuser';
      world.advertisers = [{ id: 'acc_1', organization: 'org_missing', provider: 'provider_z', name: 'x', currency: 'usd' }];
      const file = join(dir, 'world.json');
      writeFileSync(file, JSON.stringify(world));
      const data = join(dir, 'store.db');
      const err = await startSandbox({ port: 0, data, fixtures: file, quiet: true }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(FixtureError);
      const message = (err as Error).message;
      expect(message).toContain(file);
      for (const field of ['/apiKeys/0/key', '/members/0/role', '/advertisers/0/provider', '/advertisers/0/currency']) {
        expect(message).toContain(field);
      }
      expect(existsSync(data)).toBe(false);
    }));

  it('cross references are checked: unknown organization or member, duplicate ids', () => {
    const w = minimalWorld() as any;
    w.apiKeys.push({ ...w.apiKeys[0], label: 'other', member: 'mem_nobody' });
    w.advertisers = [
      { id: 'acc_1', organization: 'org_nowhere', provider: 'provider_a', name: 'x', currency: null },
      { id: 'acc_1', organization: 'org_test', provider: 'provider_a', name: 'x', currency: null },
    ];
    let m = '';
    try {
      parseWorld(w);
    } catch (e) {
      m = (e as Error).message;
    }
    expect(m).toContain('/apiKeys/1/key'); // the same secret twice
    expect(m).toContain('/apiKeys/1/member');
    expect(m).toContain('/advertisers/0/organization');
    expect(m).toContain('/advertisers/1/id');
  });

  it('a file that is not JSON, or missing, is named', () =>
    withTempDir(async (dir) => {
      const file = join(dir, 'broken.json');
      writeFileSync(file, '{ "organizations": [');
      await expect(startSandbox({ port: 0, data: ':memory:', fixtures: file, quiet: true })).rejects.toThrow(/broken\.json is not valid JSON/);
      await expect(startSandbox({ port: 0, data: ':memory:', fixtures: join(dir, 'absent.json'), quiet: true })).rejects.toThrow(/cannot read fixture file/);
    }));

  it('a good file loads and its keys are served', () =>
    withTempDir(async (dir) => {
      const file = join(dir, 'world.json');
      writeFileSync(file, JSON.stringify({ $schema: './fixtures.schema.json', ...minimalWorld() }));
      const sb = await startSandbox({ port: 0, data: ':memory:', fixtures: file, quiet: true });
      try {
        expect(sb.keys).toEqual([{ key: 'acr_test_full_0001', organization: 'org_test', label: 'full', description: 'every permission' }]);
        expect(await readKeys({ data: ':memory:', fixtures: file })).toEqual(sb.keys);
      } finally {
        await sb.close();
      }
    }));
});

describe('the demo world', () => {
  const world = demoWorld();

  it('has ≥2 organizations, one without subscription, and advertisers on every entity provider', () => {
    expect(world.organizations.length).toBeGreaterThanOrEqual(2);
    expect(world.organizations.some((o) => !o.subscription)).toBe(true);
    for (const p of ENTITY_PROVIDERS) expect(world.advertisers.some((a) => a.provider === p && a.connection === 'connected')).toBe(true);
    expect(world.advertisers.some((a) => a.currency === null)).toBe(true);
    expect(world.advertisers.some((a) => a.connection === 'not_connected')).toBe(true);
    expect(world.advertisers.some((a) => a.connection === 'no_write_access')).toBe(true);
  });

  it('is deterministic', () => {
    expect(JSON.stringify(demoWorldInput())).toBe(JSON.stringify(demoWorldInput()));
  });

  it('its keys answer as their descriptions say (every row of the auth failure table)', async () => {
    // Only the platform rows: the test is about keys, not provider entities.
    const platformOnly = demoPlatformInput();
    const sb = await startSandbox({ port: 0, data: ':memory:', world: platformOnly, quiet: true, extraRoutes: registerProbeRoutes });
    try {
      const expected: Record<keyof typeof DEMO_KEYS, [number, string | null]> = {
        'acme-full': [201, null],
        'globex-full': [201, null],
        'acme-observe-only': [403, 'forbidden'],
        'acme-revoked': [401, 'unauthorized'],
        'acme-expired': [401, 'unauthorized'],
        'acme-member-left': [403, 'forbidden'],
        'acme-member-deleted': [401, 'unauthorized'],
        'initech-unsubscribed': [402, 'organization_unentitled'],
      };
      for (const [label, [status, code]] of Object.entries(expected)) {
        const res = await request(sb.url, 'POST', '/_probe/context/skills', { key: DEMO_KEYS[label as keyof typeof DEMO_KEYS], body: { name: 'x' } });
        expect(res.status, label).toBe(status);
        if (code) expect(res.body.error, label).toBe(code);
      }
      expect(sb.keys.map((k) => k.label).sort()).toEqual(Object.keys(DEMO_KEYS).sort());
      // `adops sandbox keys` without a store lists the same keys as a started demo sandbox.
      expect(await readKeys({ data: ':memory:' })).toEqual(sb.keys);
      const observeOnly = await request(sb.url, 'GET', '/_probe/observe/campaigns', { key: DEMO_KEYS['acme-observe-only'] });
      expect(observeOnly.status).toBe(200);
    } finally {
      await sb.close();
    }
  });
});

describe('docs/fixtures.md', () => {
  it('its example world is valid', () => {
    const md = readFileSync(fileURLToPath(new URL('../../../docs/fixtures.md', import.meta.url)), 'utf8');
    const example = /```json\n([\s\S]*?)\n```/.exec(md)?.[1];
    expect(example).toBeDefined();
    const world = parseWorld(JSON.parse(example!), 'docs/fixtures.md example');
    expect(world.apiKeys.map((k) => k.label)).toEqual(['shop-full', 'shop-reader', 'shop-left', 'broke']);
  });

  it('names every demo key', () => {
    const md = readFileSync(fileURLToPath(new URL('../../../docs/fixtures.md', import.meta.url)), 'utf8');
    for (const key of Object.values(DEMO_KEYS)) expect(md).toContain(key);
  });
});

describe('docs/fixtures.schema.json', () => {
  it('is the JSON Schema generated from worldSchema (regenerate: UPDATE_FIXTURES_SCHEMA=1 npx vitest run test/sandbox/platform/fixtures.test.ts)', () => {
    const text = fixturesJsonSchemaText();
    if (process.env.UPDATE_FIXTURES_SCHEMA === '1') writeFileSync(SCHEMA_FILE, text);
    expect(existsSync(SCHEMA_FILE), 'docs/fixtures.schema.json is missing').toBe(true);
    expect(readFileSync(SCHEMA_FILE, 'utf8'), 'docs/fixtures.schema.json is stale').toBe(text);
    const schema = JSON.parse(text);
    expect(schema.required).toContain('organizations');
    // The file is a usable JSON Schema: it accepts the docs' example and the demo world, and refuses a bad key.
    // (ajv comes with `conf`, a dependency; it is only used here.)
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    const md = readFileSync(fileURLToPath(new URL('../../../docs/fixtures.md', import.meta.url)), 'utf8');
    expect(validate(JSON.parse(/```json\n([\s\S]*?)\n```/.exec(md)![1]!)), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(JSON.parse(JSON.stringify(demoWorldInput()))), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const bad = minimalWorld() as any;
    bad.apiKeys[0].key = 'sk_nope_000000000';
    expect(validate(bad)).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['organizations', 'members', 'apiKeys', 'advertisers', 'faults']));
  });
});
