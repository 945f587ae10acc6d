// Issue #34 §3, HIGH: a proxy password holding both "/" and "@" was printed in
// part. `HTTPS_PROXY=http://ops:pa/ss@WORD5/x@host:port`: the mask stopped at
// the first "@", so "WORD5/x" was printed by observe's error, --debug, doctor
// and config list. A URL parser takes the last "@" of the user info; so does
// every mask now. Each surface runs in process with such a variable: one that
// does not parse (a setting error, exit 2) and ones that do (a password with
// "@" sent to a proxy that is not there: exit 6, the route in --debug).
import { createServer } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';

const cfg = tempConfigDir();
/** A loopback port nothing listens on: the proxy is refused at once. */
let closedPort = 0;
beforeAll(async () => {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (address === null || typeof address !== 'object') throw new Error('no port');
  closedPort = address.port;
  await new Promise<void>((r) => server.close(() => r()));
});

const SURFACES: Array<{ args: string[]; code: number }> = [
  { args: ['observe', 'campaigns', 'list', '--advertiser', 'acc_acme_c_001', '--retries', '0'], code: 0 },
  { args: ['observe', 'campaigns', 'list', '--advertiser', 'acc_acme_c_001', '--retries', '0', '--debug'], code: 0 },
  { args: ['observe', 'campaigns', 'list', '--advertiser', 'acc_acme_c_001', '--retries', '0', '-o', 'json'], code: 0 },
  { args: ['config', 'list'], code: 0 },
  { args: ['config', 'list', '-o', 'json'], code: 0 },
  { args: ['doctor'], code: 0 },
  { args: ['doctor', '-o', 'json'], code: 0 },
];

async function everySurface(proxy: string, secretParts: readonly string[], observeCode: number): Promise<string[]> {
  const shown: string[] = [];
  // An https base URL off loopback: plain http to loopback never takes a proxy.
  const env = {
    ADOPS_CONFIG_DIR: cfg,
    ADOPS_API_KEY: 'acr_h34_proxy_key_0001',
    ADOPS_BASE_URL: 'https://adops.example.invalid',
    HTTPS_PROXY: proxy,
    NO_PROXY: '',
  };
  for (const { args } of SURFACES) {
    const r = await runAdopsInProcess(args, { env, timeoutMs: 20_000 });
    const all = `${r.stdout}${r.stderr}`;
    if (args[0] === 'observe') expect(r.code, `${args.join(' ')}:\n${all}`).toBe(observeCode);
    for (const part of secretParts) expect(all, `${args.join(' ')} with HTTPS_PROXY=${proxy}:\n${all}`).not.toContain(part);
    expect(all, `${args.join(' ')}:\n${all}`).toContain('ops:***@');
    shown.push(all);
  }
  return shown;
}

describe('a proxy password with "/" and "@" is never printed, not even in part', () => {
  it('a variable that does not parse: observe (exit 2, text and json), --debug, config list, doctor', async () => {
    const variables = [
      'http://ops:pa/ss@WORD5/x@host:port',
      'ops:pa/ss@WORD5/x@host:3128',
      'https://ops:p%2Fss@WORD5?q#f@host:port',
      'http://ops:1234/WORD5@host:3128',
    ];
    for (const proxy of variables) {
      const shown = await everySurface(proxy, ['WORD5', 'pa/ss', 'p%2Fss', '1234'], 2);
      expect(shown[0]).toMatch(/HTTPS_PROXY is not a valid proxy URL: https?:\/\/ops:\*\*\*@host:(port|3128)/);
    }
  }, 60_000);

  it('a variable that parses (its last "@" ends the user info): the refused proxy, the route in --debug, doctor, config list', async () => {
    for (const proxy of [`http://ops:pa@WORD5@127.0.0.1:${closedPort}`, `https://ops:pa@WORD5@x@127.0.0.1:${closedPort}`]) {
      const shown = await everySurface(proxy, ['WORD5', 'pa@'], 6);
      expect(shown[0]).toMatch(new RegExp(`cannot reach the proxy https?://ops:\\*\\*\\*@127\\.0\\.0\\.1:${closedPort}`));
      expect(shown[1]).toMatch(new RegExp(`\\[debug\\]   via proxy https?://ops:\\*\\*\\*@127\\.0\\.0\\.1:${closedPort} \\(from HTTPS_PROXY\\)`));
    }
  }, 60_000);
});
