// Keys as they arrive from env, files and prompts, and profiles named on purpose.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toReport } from '../../../src/cli/report.js';
import { InvalidApiKeyError, normalizeApiKey } from '../../../src/config/key.js';
import { resolveAuth } from '../../../src/config/resolve.js';
import { ConfigStore } from '../../../src/state/config-store.js';
import { checkProfileName } from '../../../src/config/profile-name.js';
import { formatReport } from '../../../src/cli/report.js';
import { RepeatedCursorError } from '../../../src/client/errors.js';
import { tempDir } from '../../helpers/temp.js';

const store = (profiles: Record<string, { baseUrl?: string; apiKey?: string }> = {}) => {
  const s = new ConfigStore(join(tempDir('adops-key-'), 'adops'));
  Object.assign(s.read().profiles, profiles);
  return s;
};

describe('API keys', () => {
  it('trims surrounding whitespace: `export ADOPS_API_KEY=$(cat key.txt)` from a CRLF file', () => {
    expect(normalizeApiKey('acr_abc\r', 'env')).toBe('acr_abc');
    expect(normalizeApiKey('  acr_abc\r\n', 'env')).toBe('acr_abc');
    expect(normalizeApiKey(' \r\n', 'env')).toBeUndefined();
    expect(resolveAuth(store(), { ADOPS_API_KEY: 'acr_env_key\r' }, {}).apiKey).toBe('acr_env_key');
    expect(resolveAuth(store({ default: { apiKey: 'acr_file_key\r\n' } }), {}, {}).apiKey).toBe('acr_file_key');
  });

  it('refuses inner control characters, spaces and non-ASCII with a clear message and the auth exit code', () => {
    for (const bad of ['acr_ab\rcd', 'acr_ab\ncd', 'acr_ab cd', 'acr_ab\u0000cd', 'acr_abçd']) {
      const err = (() => {
        try {
          normalizeApiKey(bad, 'ADOPS_API_KEY');
        } catch (e) {
          return e;
        }
      })();
      expect(err, JSON.stringify(bad)).toBeInstanceOf(InvalidApiKeyError);
      const report = toReport(err);
      expect(report).toMatchObject({ exitCode: 3, code: 'invalid_api_key' });
      expect(report.message).toMatch(/ADOPS_API_KEY/);
      expect(report.message).not.toContain('acr_ab');
    }
  });
});

describe('--profile', () => {
  it('naming no stored profile says so (usage error), and lists the known ones', () => {
    const s = store({ work: { baseUrl: 'https://w', apiKey: 'acr_w' } });
    let err: unknown;
    try {
      resolveAuth(s, {}, { profile: 'wrok' });
    } catch (e) {
      err = e;
    }
    expect(toReport(err)).toMatchObject({ exitCode: 2, code: 'unknown_profile' });
    expect((err as Error).message).toMatch(/no profile named "wrok"/);
    expect(resolveAuth(s, { ADOPS_PROFILE: 'nope' }, {})).toMatchObject({ profile: 'nope', apiKey: undefined });
    expect(resolveAuth(s, {}, { profile: 'work' }).apiKey).toBe('acr_w');
  });
});

describe('errors of the lower floors, mapped to exit codes in cli/', () => {
  it('a bad profile name is a usage error (exit 2), shown without a code prefix', () => {
    let err: unknown;
    try {
      checkProfileName('bad name');
    } catch (e) {
      err = e;
    }
    const report = toReport(err);
    expect(report).toMatchObject({ exitCode: 2, code: 'usage_error' });
    expect(formatReport(report)).toMatch(/^error: "bad name" is not a profile name\nhint: profile names are up to 64/);
  });

  it('a repeated cursor is a fault of the service (exit 1) with its own code and hint', () => {
    expect(toReport(new RepeatedCursorError('c1', '/assets'))).toMatchObject({
      exitCode: 1,
      code: 'repeated_cursor',
      hint: expect.stringMatching(/fault of the service/),
    });
  });
});
