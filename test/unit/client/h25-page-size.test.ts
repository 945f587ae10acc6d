// A page is never larger than the contract's 500 (issue 25, section 5): `--all --max 600`
// asked for limit=600, which the service refuses (400, exit 7).
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/client/http.js';
import { paginate } from '../../../src/client/paginate.js';
import { LIMIT_MAX } from '../../../src/contract/ids.js';
import { HttpStubs, json } from '../../helpers/http-stub.js';

let http: HttpStubs;
afterEach(() => http.verify());

const rows = (n: number, from: number) => Array.from({ length: n }, (_, i) => ({ id: `r${from + i}` }));

describe('paginate page size', () => {
  it('asks at most the contract limit per page under --max 600, then the rest', async () => {
    http = new HttpStubs();
    const client = new ApiClient({ baseUrl: 'https://api.adops.test', apiKey: 'acr_k_1234', userAgent: 't', transport: http });
    http
      .on('GET', /^\/assets\?limit=500$/, json(200, { data: rows(500, 0), nextCursor: 'c1' }))
      .on('GET', /cursor=c1&limit=100$/, json(200, { data: rows(100, 500), nextCursor: 'c2' }));
    let total = 0;
    for await (const page of paginate(client, { method: 'GET', path: '/assets' }, { max: 600 })) total += page.rows.length;
    expect(total).toBe(600);
    expect(http.requests.map((r) => r.path)).toEqual(['/assets?limit=500', '/assets?cursor=c1&limit=100']);
    expect(LIMIT_MAX).toBe(500);
  });

  it('caps an explicit page size above the limit too', async () => {
    http = new HttpStubs();
    const client = new ApiClient({ baseUrl: 'https://api.adops.test', apiKey: 'acr_k_1234', userAgent: 't', transport: http });
    http.on('GET', /^\/assets\?limit=500$/, json(200, { data: rows(3, 0) }));
    for await (const _ of paginate(client, { method: 'GET', path: '/assets' }, { pageSize: 1000 })) void _;
    expect(http.requests[0]!.path).toBe('/assets?limit=500');
  });
});
