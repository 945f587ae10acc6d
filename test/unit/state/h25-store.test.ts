// The one local store (src/state), in process: a change is applied to what is
// on disk under the lock (never to this run's cached copy), profiles are the
// file's own keys, an empty variable is named, and a journal read for one
// service and key holds only that scope's rows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toReport } from '../../../src/cli/report.js';
import { configDir, ConfigStore, ownProfile } from '../../../src/state/config-store.js';
import { keyFingerprint, serviceScope } from '../../../src/state/fingerprint.js';
import { Journal } from '../../../src/state/mutation-journal.js';
import { tempDir } from '../../helpers/temp.js';

const fresh = () => tempDir('adops-state-');

describe('ConfigStore.update', () => {
  it('merges with a change another run wrote after this run read the file', async () => {
    const dir = fresh();
    const mine = new ConfigStore(dir);
    const theirs = new ConfigStore(dir);
    expect(mine.read().profiles).toEqual({}); // this run's copy, read at start
    await theirs.update((d) => void (d.profiles.theirs = { apiKey: 'acr_theirs' }));
    await mine.update((d) => void (d.settings.retries = 2));
    const onDisk = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(onDisk).toMatchObject({ profiles: { theirs: { apiKey: 'acr_theirs' } }, settings: { retries: 2 } });
    expect(mine.modes()).toEqual({ dir: 0o700, file: 0o600 });
  });

  it('many updates at once in one process: every one kept', async () => {
    const dir = fresh();
    await Promise.all(Array.from({ length: 12 }, (_, i) => new ConfigStore(dir).update((d) => void (d.profiles[`p${i}`] = { apiKey: `acr_${i}` }))));
    expect(Object.keys(new ConfigStore(dir).read().profiles).sort()).toHaveLength(12);
  });
});

describe('profiles and the environment', () => {
  it('a profile is one of the file’s own keys, never a member of Object.prototype', () => {
    const data = { profiles: { acme: { apiKey: 'acr_x' } }, settings: {} };
    expect(ownProfile(data, 'acme')).toEqual({ apiKey: 'acr_x' });
    for (const name of ['constructor', 'toString', '__proto__', 'valueOf']) expect(ownProfile(data, name)).toBeUndefined();
  });

  it('ADOPS_CONFIG_DIR set but empty is exit 2 naming it, not the default directory', () => {
    let err: unknown;
    try {
      configDir({ ADOPS_CONFIG_DIR: '', HOME: '/home/x' });
    } catch (e) {
      err = e;
    }
    expect(toReport(err)).toMatchObject({ exitCode: 2, code: 'empty_environment_variable', message: 'ADOPS_CONFIG_DIR is set but empty' });
    expect(configDir({ HOME: '/home/x' })).toBe('/home/x/.config/adops');
  });
});

describe('the journal of mutations apply, per service and key', () => {
  const staging = serviceScope('https://staging.example/', 'acr_stage');
  const production = serviceScope('https://prod.example', 'acr_prod');

  it('rows recorded for one scope are not read for another; each line names its scope, never the key', () => {
    const path = join(fresh(), 'changes.csv.adops-journal.ndjson');
    new Journal(path, staging).record({ row: 'r#1', line: 2, idempotencyKey: 'k1', firstSentAt: 1, mutationId: 'mut_stage', state: 'pending' });
    const prod = new Journal(path, production);
    expect(prod.get('r#1')).toBeUndefined();
    expect([...prod.otherScopes.values()].map((o) => [o.scope.baseUrl, [...o.rows]])).toEqual([['https://staging.example', ['r#1']]]);
    prod.record({ row: 'r#1', line: 2, idempotencyKey: 'k2', firstSentAt: 2, mutationId: 'mut_prod', state: 'pending' });
    expect(new Journal(path, staging).get('r#1')?.mutationId).toBe('mut_stage');
    expect(new Journal(path, production).get('r#1')?.mutationId).toBe('mut_prod');
    const text = readFileSync(path, 'utf8');
    expect(text).toContain(keyFingerprint('acr_prod'));
    expect(text).not.toContain('acr_prod');
  });

  it('a line without a scope (an older adops) is never read as this run’s', () => {
    const path = join(fresh(), 'old.ndjson');
    new Journal(path).record({ row: 'r#1', line: 2, idempotencyKey: 'k', firstSentAt: 1, mutationId: 'mut_old', state: 'pending' });
    const j = new Journal(path, production);
    expect(j.get('r#1')).toBeUndefined();
    expect([...j.unscopedRows]).toEqual(['r#1']);
  });
});
