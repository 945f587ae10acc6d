import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BASE_URL, resolveAuth } from '../../../src/config/resolve.js';
import { ConfigStore, configDir } from '../../../src/state/config-store.js';
import { tempDir } from '../../helpers/temp.js';

const mode = (p: string) => statSync(p).mode & 0o777;
const fresh = () => join(tempDir('adops-cfg-'), 'adops');

describe('config file modes', () => {
  it('creates the directory 0700 and the file 0600', async () => {
    const dir = fresh();
    const store = new ConfigStore(dir);
    await store.update((d) => void (d.profiles.default = { baseUrl: 'https://h', apiKey: 'acr_x' }));
    expect(mode(dir)).toBe(0o700);
    expect(mode(store.file)).toBe(0o600);
    expect(JSON.parse(readFileSync(store.file, 'utf8')).profiles.default.apiKey).toBe('acr_x');
  });

  it('tightens a directory and file that already existed with looser modes', async () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true, mode: 0o777 });
    chmodSync(dir, 0o777);
    writeFileSync(join(dir, 'config.json'), '{"profiles":{}}');
    chmodSync(join(dir, 'config.json'), 0o666);
    const store = new ConfigStore(dir);
    expect(store.modes()).toEqual({ dir: 0o777, file: 0o666 });
    await store.update((d) => void (d.settings.output = 'json'));
    expect(mode(dir)).toBe(0o700);
    expect(mode(store.file)).toBe(0o600);
  });

  it('ADOPS_CONFIG_DIR moves the config', () => {
    expect(configDir({ ADOPS_CONFIG_DIR: '/x/y' })).toBe('/x/y');
    expect(configDir({ HOME: '/home/u' })).toBe('/home/u/.config/adops');
    expect(configDir({ HOME: '/home/u', XDG_CONFIG_HOME: '/xdg' })).toBe('/xdg/adops');
  });

  it('explains a corrupt file instead of crashing', () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), '{nope');
    expect(() => new ConfigStore(dir).read()).toThrow(`the config file ${join(dir, 'config.json')} is not JSON (line 1, column 2)`);
  });
});

describe('resolveAuth precedence', () => {
  const store = () => {
    const s = new ConfigStore(fresh());
    s.read().profiles.work = { baseUrl: 'https://work', apiKey: 'acr_work' };
    s.read().profiles.default = { baseUrl: 'https://dflt', apiKey: 'acr_dflt' };
    s.read().currentProfile = 'work';
    return s;
  };
  it('uses the current profile from the file', () => {
    expect(resolveAuth(store(), {}, {})).toMatchObject({
      profile: 'work',
      baseUrl: 'https://work',
      apiKey: 'acr_work',
      apiKeySource: 'file',
      envOverrides: [],
    });
  });
  it('lets env override the file, and says so', () => {
    const a = resolveAuth(store(), { ADOPS_API_KEY: 'acr_env', ADOPS_BASE_URL: 'https://env', ADOPS_PROFILE: 'default' }, {});
    expect(a).toMatchObject({ profile: 'default', apiKey: 'acr_env', apiKeySource: 'env', baseUrl: 'https://env', baseUrlSource: 'env' });
    expect(a.envOverrides.sort()).toEqual(['ADOPS_API_KEY', 'ADOPS_BASE_URL', 'ADOPS_PROFILE']);
  });
  it('lets flags override env', () => {
    expect(resolveAuth(store(), { ADOPS_PROFILE: 'default' }, { profile: 'work', baseUrl: 'https://flag' })).toMatchObject({
      profile: 'work',
      baseUrl: 'https://flag',
      baseUrlSource: 'flag',
    });
  });
  it('falls back to the sandbox default address and no key', () => {
    expect(resolveAuth(new ConfigStore(fresh()), {}, {})).toMatchObject({
      profile: 'default',
      baseUrl: DEFAULT_BASE_URL,
      apiKey: undefined,
      apiKeySource: 'none',
    });
  });
});
