// Path and query parameters checked by the contract's compiled validators (#34), as the sandbox checks
// them: text, a number read from it where the contract reads one. What the sandbox would refuse is exit
// 2 against a recorder that must see nothing, every problem named by what the person typed; what it
// accepts is sent as it is.
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO, ensureBuilt } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { tempDir } from '../helpers/temp.js';

let server: Server;
let url = '';
const seen: string[] = [];
let dir = '';

beforeAll(async () => {
  ensureBuilt();
  dir = tempDir('adops-h34-parameters-');
  // Records each request's method and URL and answers an empty page (or, to a DELETE, what was deleted).
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.method === 'DELETE' ? { deleted: true, slug: 'spring' } : { data: [] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  url = `http://127.0.0.1:${address !== null && typeof address === 'object' ? address.port : 0}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

beforeEach(() => {
  seen.splice(0);
});

const run = (args: string[]) => runAdopsInProcess(args, { env: { ADOPS_BASE_URL: url, ADOPS_API_KEY: DEMO.full, ADOPS_CONFIG_DIR: join(dir, 'config') } });

describe('a path or query value the sandbox would refuse is exit 2, nothing sent, named as it was typed', () => {
  const cases: Array<{ name: string; args: string[]; says: string }> = [
    {
      name: '--limit past the contract: its bound in words',
      args: ['observe', 'campaigns', '--limit', '501'],
      says: '--limit must be at most 500, got "501"',
    },
    {
      name: '-f limit=10.0: a number, but not the digits the sandbox reads',
      args: ['observe', 'campaigns', '-f', 'limit=10.0'],
      says: '-f limit must match ^[0-9]{1,4}$, got "10.0"',
    },
    {
      name: '--live: an advertiser id past 200 characters',
      args: ['observe', 'campaigns', '--live', `acc_${'x'.repeat(197)}`],
      says: '--live must be at most 200 characters',
    },
    {
      name: 'a DELETE --revision with a leading zero (the sandbox reads ^[1-9][0-9]{0,14}$)',
      args: ['plans', 'delete', 'spring', '--revision', '01', '--yes'],
      says: '--revision must match ^[1-9][0-9]{0,14}$, got "01"',
    },
    {
      name: 'every problem at once, each by its flag or -f key',
      args: ['observe', 'campaigns', '--advertiser', 'nope', '-f', 'limit=0'],
      says: '-f limit must be at least 1, got "0"; --advertiser must start with acc_, got "nope"',
    },
    {
      name: 'a positional argument, by its name',
      args: ['observe', 'campaigns', 'get', 'adv_1', '42'],
      says: '<advertiser> must start with acc_, got "adv_1"',
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await run(c.args);
      expect(r.stderr).toContain(c.says);
      expect(r.code, r.stderr).toBe(2);
      expect(seen).toEqual([]);
    });
  }
});

describe('what the sandbox accepts is sent', () => {
  it('a 150-emoji advertiser id is 150 characters to the sandbox (code points), within its 200', async () => {
    const id = `acc_${'😀'.repeat(150)}`;
    const r = await run(['observe', 'campaigns', '--advertiser', id, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(seen).toEqual([`GET /observe/campaigns?advertiserId=${encodeURIComponent(id)}`]);
  });

  it('--limit 0500 reads as 500, as the sandbox reads it', async () => {
    const r = await run(['observe', 'campaigns', '-f', 'limit=0500', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(seen).toEqual(['GET /observe/campaigns?limit=0500']);
  });
});
