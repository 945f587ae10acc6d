// `… edit` (issue 8): the row's fields in $EDITOR on a terminal, saved the
// revision-safe way. The "editor" is a small shell script that edits the file
// (and, for the conflict case, has another adops process write the same field
// while it is open); the CLI runs under a pseudo-terminal (script(1)).
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, DEMO, ensureBuilt, runAdops, runAdopsTty, tempConfigDir } from '../helpers/cli.js';
import { startDemoSandbox, type DemoSandbox } from '../helpers/demo-sandbox.js';
import { request } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

let sandbox: DemoSandbox;
let cfg: string;
let dir: string;
const key = DEMO.full;
const env = (extra: Record<string, string> = {}) => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_API_KEY: key, ADOPS_BASE_URL: sandbox.url, ...extra });
const api = async (method: string, path: string, body?: unknown) =>
  (await request(sandbox.url, method, path, { key, ...(body !== undefined ? { body } : {}) })).body;

/** An "editor": a shell script run as `script FILE`; it also copies what it was shown to FILE.seen. */
function editor(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\nset -e\ncp "$1" "${dir}/${name}.seen"\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

beforeAll(async () => {
  ensureBuilt();
  cfg = tempConfigDir();
  dir = tempDir('adops-editors-');
  sandbox = await startDemoSandbox();
  await api('POST', '/context/brands', { slug: 'ed-acme', name: 'Acme', description: 'Outdoor gear', voice: 'Plain.' });
}, 60_000);

afterAll(async () => {
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('brands edit', () => {
  it('saves the fields and the markdown sections changed in $EDITOR', async () => {
    const ed = editor(
      'brand.sh',
      `sed -i -e 's/^name: .*/name: Acme Outdoor/' -e 's/^=== guidelines ===$/=== guidelines ===\\n# Logo\\n\\nNever stretch it./' "$1"`,
    );
    const r = await runAdopsTty(['brands', 'edit', 'ed-acme'], { env: env({ EDITOR: ed }) });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain('saved brand ed-acme: name, guidelines (revision 2)');
    const seen = readFileSync(join(dir, 'brand.sh.seen'), 'utf8');
    expect(seen).toContain('# adops: brand ed-acme, revision 1.');
    expect(seen).toContain('name: Acme\ndescription: Outdoor gear\nlogoUrl: null\n');
    expect(seen).toContain('=== voice ===\nPlain.\n');
    expect(await api('GET', '/context/brands/ed-acme')).toMatchObject({
      name: 'Acme Outdoor',
      guidelines: '# Logo\n\nNever stretch it.',
      voice: 'Plain.',
      revision: 2,
    });
  });

  it('VISUAL wins over EDITOR; saving it unchanged says so and sends nothing', async () => {
    const r = await runAdopsTty(['brands', 'edit', 'ed-acme'], { env: env({ VISUAL: editor('same.sh', 'true'), EDITOR: '/bin/false' }) });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain('no change: nothing sent (brand ed-acme stays at revision 2)');
    expect(existsSync(join(dir, 'same.sh.seen'))).toBe(true);
    expect(await api('GET', '/context/brands/ed-acme')).toMatchObject({ revision: 2 });
  });

  it('someone writes the same field while the editor is open: exit 5, both values shown, the edit kept in a file', async () => {
    const other = `${process.execPath} ${BIN} brands update ed-acme --voice 'Theirs.' >/dev/null`;
    const ed = editor('conflict.sh', `${other}\nsed -i 's/^Plain\\.$/Ours./' "$1"`);
    const r = await runAdopsTty(['brands', 'edit', 'ed-acme'], { env: env({ EDITOR: ed }) });
    expect(r.code, r.stdout).toBe(5);
    const out = r.stdout.replace(/\r\n/g, '\n');
    expect(out).toContain('  voice:\n    theirs:\n      "Theirs."\n    yours:\n      "Ours."\n');
    const kept = /your edit is kept in (\S+)/.exec(out)?.[1];
    expect(kept && readFileSync(kept, 'utf8')).toContain('=== voice ===\nOurs.');
    expect(await api('GET', '/context/brands/ed-acme')).toMatchObject({ voice: 'Theirs.' });
    rmSync(join(kept!, '..'), { recursive: true, force: true });
  });

  it('someone writes another field while the editor is open: both changes land', async () => {
    const other = `${process.execPath} ${BIN} brands update ed-acme --description 'Theirs, meanwhile' >/dev/null`;
    const ed = editor('other-field.sh', `${other}\nsed -i 's/^=== messaging ===$/=== messaging ===\\nOurs, edited./' "$1"`);
    const r = await runAdopsTty(['brands', 'edit', 'ed-acme'], { env: env({ EDITOR: ed }) });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/changed meanwhile \(revision \d+: description\); re-applying yours/);
    expect(await api('GET', '/context/brands/ed-acme')).toMatchObject({ description: 'Theirs, meanwhile', messaging: 'Ours, edited.' });
  });

  it('text it cannot read is a usage error: nothing sent, the text kept', async () => {
    const r = await runAdopsTty(['brands', 'edit', 'ed-acme'], {
      env: env({ EDITOR: editor('bad.sh', `sed -i 's/^logoUrl: null$/logoUrl: null\\ncolour: red/' "$1"`) }),
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/unknown field "colour" \(fields: name, description, logoUrl\)/);
    const kept = /your edit is kept in (\S+)/.exec(r.stdout)?.[1];
    expect(kept && readFileSync(kept, 'utf8')).toContain('colour: red');
    rmSync(join(kept!, '..'), { recursive: true, force: true });
  });

  it('an editor that fails (exit 1) sends nothing', async () => {
    const before = (await api('GET', '/context/brands/ed-acme')) as { revision: number };
    const r = await runAdopsTty(['brands', 'edit', 'ed-acme'], { env: env({ EDITOR: editor('quit.sh', `echo 'name: X' >> "$1"; exit 1`) }) });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/exited with 1: nothing sent/);
    expect(await api('GET', '/context/brands/ed-acme')).toMatchObject({ revision: before.revision });
  });

  it('off a terminal: a usage error naming update, and no request at all', async () => {
    const r = await runAdops(['brands', 'edit', 'ed-acme'], { env: env({ EDITOR: editor('never.sh', 'true'), ADOPS_DEBUG: '1' }) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('adops brands edit opens an editor: it needs a terminal');
    expect(r.stderr).toContain('use `adops brands update`');
    expect(r.stderr).not.toMatch(/→/);
    expect(existsSync(join(dir, 'never.sh.seen'))).toBe(false);
  });
});

describe('other edits', () => {
  it('personas edit: lists as "- item" lines', async () => {
    await api('POST', '/context/brands/ed-acme/personas', { slug: 'hiker', name: 'Hiker', goals: ['summit'] });
    const ed = editor('persona.sh', `sed -i 's/^  - summit$/  - summit\\n  - camp overnight/' "$1"`);
    const r = await runAdopsTty(['brands', 'personas', 'edit', 'ed-acme', 'hiker'], { env: env({ EDITOR: ed }) });
    expect(r.code, r.stdout).toBe(0);
    expect(await api('GET', '/context/brands/ed-acme/personas/hiker')).toMatchObject({ goals: ['summit', 'camp overnight'], revision: 2 });
  });

  it('personas edit: a list item the contract refuses (a goal past 500 characters) is named, nothing sent, the edit kept (#34)', async () => {
    await api('POST', '/context/brands/ed-acme/personas', { slug: 'walker', name: 'Walker', goals: ['summit'] });
    const ed = editor('long-goal.sh', `sed -i 's/^  - summit$/  - summit\\n  - ${'x'.repeat(501)}/' "$1"`);
    const r = await runAdopsTty(['brands', 'personas', 'edit', 'ed-acme', 'walker'], { env: env({ EDITOR: ed }) });
    expect(r.code, r.stdout).toBe(2);
    expect(r.stdout).toContain('goals.1 must be at most 500 characters');
    expect(r.stdout).toMatch(/nothing was sent/);
    const kept = /your edit is kept in (\S+)/.exec(r.stdout)?.[1];
    expect(kept && readFileSync(kept, 'utf8')).toContain('x'.repeat(501));
    rmSync(join(kept!, '..'), { recursive: true, force: true });
    expect(await api('GET', '/context/brands/ed-acme/personas/walker')).toMatchObject({ goals: ['summit'], revision: 1 });
  });

  it('skills edit: the body as a markdown block', async () => {
    await api('POST', '/context/skills', { slug: 'ed-skill', name: 'Pacing', body: '# Pacing\n\nSpend evenly.\n' });
    const r = await runAdopsTty(['skills', 'edit', 'ed-skill'], { env: env({ EDITOR: editor('skill.sh', `echo 'Check daily.' >> "$1"`) }) });
    expect(r.code, r.stdout).toBe(0);
    expect(await api('GET', '/context/skills/ed-skill')).toMatchObject({ body: '# Pacing\n\nSpend evenly.\nCheck daily.' });
  });

  it('plans edit: numbers stay numbers; an approved plan is refused before the editor opens', async () => {
    await api('POST', '/context/campaign-plans', { slug: 'ed-plan', name: 'Plan', currency: 'USD', budget: 1000 });
    const r = await runAdopsTty(['plans', 'edit', 'ed-plan'], { env: env({ EDITOR: editor('plan.sh', `sed -i 's/^budget: 1000$/budget: 1500.5/' "$1"`) }) });
    expect(r.code, r.stdout).toBe(0);
    expect(await api('GET', '/context/campaign-plans/ed-plan')).toMatchObject({ budget: 1500.5 });

    await api('POST', '/context/campaign-plans', { slug: 'ed-frozen', name: 'Frozen', currency: 'USD' });
    await api('POST', '/context/campaign-plans/ed-frozen/line-items', { name: 'x' });
    await api('PATCH', '/context/campaign-plans/ed-frozen', { revision: 1, status: 'archived' });
    const frozen = await runAdopsTty(['plans', 'edit', 'ed-frozen'], { env: env({ EDITOR: editor('frozen.sh', 'true') }) });
    expect(frozen.code).toBe(5);
    expect(frozen.stdout).toMatch(/plan ed-frozen cannot be edited: the plan is archived, and only a draft plan and its Line Items change/);
    expect(existsSync(join(dir, 'frozen.sh.seen'))).toBe(false);
  });

  it("plans line-items edit: the item read through its plan; a frozen plan's item is refused before the editor opens", async () => {
    const li = ((await api('POST', '/context/campaign-plans/ed-plan/line-items', { name: 'Social', budget: 100 })) as { lineItemId: string }).lineItemId;
    const r = await runAdopsTty(['plans', 'line-items', 'edit', 'ed-plan', li], {
      env: env({ EDITOR: editor('li.sh', `sed -i -e 's/^budget: 100$/budget: 120/' -e 's/^budgetType: null$/budgetType: daily/' "$1"`) }),
    });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain(`saved line item ed-plan ${li}: budget, budgetType (revision 2)`);
    const plan = (await api('GET', '/context/campaign-plans/ed-plan')) as { lineItems: Array<Record<string, unknown>> };
    expect(plan.lineItems.find((x) => x.lineItemId === li)).toMatchObject({ budget: 120, budgetType: 'daily' });

    const frozenLi = ((await api('GET', '/context/campaign-plans/ed-frozen')) as { lineItems: Array<{ lineItemId: string }> }).lineItems[0]!.lineItemId;
    const frozen = await runAdopsTty(['plans', 'line-items', 'edit', 'ed-frozen', frozenLi], { env: env({ EDITOR: editor('frozen-li.sh', 'true') }) });
    expect(frozen.code).toBe(5);
    expect(existsSync(join(dir, 'frozen-li.sh.seen'))).toBe(false);
  });
});
