// The setup file's judgement (test/helpers/check-responses.ts asks seen-responses.ts after every file): each
// answer seen through the helpers is judged against the published documents, and a wrong one is named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { SEEN_RESPONSES, unallowedAnswers } from '../../helpers/seen-responses.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("the setup file's judgement of the answers a file saw", () => {
  it('passes the answers the sandbox gave, and lets them go', async () => {
    expect((await sb.req('GET', '/context/skills', { key: sb.keys.full })).status).toBe(200);
    expect((await sb.req('GET', '/context/skills')).status).toBe(401);
    expect(SEEN_RESPONSES.length).toBe(2);
    expect(await unallowedAnswers()).toEqual([]);
    expect(SEEN_RESPONSES).toEqual([]);
  });

  it('names every answer the documents do not allow: a body off its schema, a status not documented', async () => {
    const res = await sb.req('GET', '/context/skills', { key: sb.keys.full });
    const [seen] = SEEN_RESPONSES.splice(0);
    const wrongBody = { ...res, body: { data: [{ slug: 1 }] } };
    const wrongStatus = { ...res, status: 418 };
    SEEN_RESPONSES.push(seen!, { ...seen!, res: wrongBody }, { ...seen!, res: wrongStatus });
    const failures = await unallowedAnswers();
    expect(failures).toHaveLength(2);
    expect(failures[0]).toMatch(/^listSkills GET \/context\/skills → 200: /);
    expect(failures[1]).toMatch(/^listSkills GET \/context\/skills → 418: status not documented/);
    expect(SEEN_RESPONSES).toEqual([]);
  });
});
