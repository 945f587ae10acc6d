// The organization's Context as MCP prompts and resources (#38): its Skills
// (ad-ops playbooks) as prompts, so an agent follows the playbooks the
// organization wrote; its Brands, their Personas and Documents as resources an
// agent can list and read. Everything is read from the service through the
// same adops commands as the tools (skills list/get, brands …), so it passes the
// same boundary; nothing is cached (a Skill edited at the service is the next
// prompts/get).
import { isRecord } from '../client/json.js';
import { jsonText, stripControl } from '../cli/output/sanitize.js';
import { cleaned, outcomeOf } from './result.js';
import type { ToolEnv } from './tool-def.js';

type Obj = Record<string, unknown>;

/** How many rows a listing reads at most (each listing is one command with --all --max). */
export const LISTING_MAX = 500;

export class ContextReadError extends Error {
  constructor(
    message: string,
    readonly report: unknown,
  ) {
    super(message);
  }
}

/** `words… flags… -- positionals…`: a positional starting with a dash is never read as a flag. */
const line = (words: readonly string[], flags: readonly string[], positionals: readonly string[]) => [
  ...words,
  ...flags,
  ...(positionals.length ? ['--', ...positionals] : []),
];

async function rowsOf(env: ToolEnv, words: readonly string[], positionals: readonly string[] = []): Promise<Obj[]> {
  const argv = line(words, ['--all', `--max=${LISTING_MAX}`, '--output=json'], positionals);
  const outcome = outcomeOf(await env.run(argv, { signal: env.signal }), { list: false });
  if (!outcome.ok) throw new ContextReadError(`adops ${argv.join(' ')} failed`, outcome.error);
  return Array.isArray(outcome.value) ? outcome.value.filter(isRecord) : [];
}

async function oneOf(env: ToolEnv, words: readonly string[], positionals: readonly string[]): Promise<Obj> {
  const argv = line(words, ['--output=json'], positionals);
  const outcome = outcomeOf(await env.run(argv, { signal: env.signal }), { list: false });
  if (!outcome.ok) throw new ContextReadError(`adops ${argv.join(' ')} failed`, outcome.error);
  return isRecord(outcome.value) ? outcome.value : {};
}

const str = (v: unknown): string => (typeof v === 'string' ? stripControl(v) : '');

export interface PromptEntry {
  name: string;
  description: string;
}

/** prompts/list: every Skill, by slug, with its description. */
export async function listSkillPrompts(env: ToolEnv): Promise<PromptEntry[]> {
  const rows = await rowsOf(env, ['skills', 'list']);
  return rows.map((r) => ({ name: str(r.slug), description: [str(r.name), str(r.description)].filter(Boolean).join(': ') })).filter((p) => p.name);
}

/** prompts/get: the Skill's body as one user message. */
export async function getSkillPrompt(
  env: ToolEnv,
  slug: string,
): Promise<{ description: string; messages: Array<{ role: 'user'; content: { type: 'text'; text: string } }> }> {
  const skill = await oneOf(env, ['skills', 'get'], [slug]);
  return { description: str(skill.description), messages: [{ role: 'user', content: { type: 'text', text: str(skill.body) } }] };
}

export interface ResourceEntry {
  uri: string;
  name: string;
  description?: string;
  mimeType: string;
}

const JSON_TYPE = 'application/json';
const enc = encodeURIComponent;

/** resources/list: every Brand, its Personas and its Documents. */
export async function listContextResources(env: ToolEnv): Promise<ResourceEntry[]> {
  const brands = await rowsOf(env, ['brands', 'list']);
  const out: ResourceEntry[] = [];
  for (const b of brands) {
    const slug = str(b.slug);
    if (!slug) continue;
    out.push({ uri: `adops://brands/${enc(slug)}`, name: `Brand ${str(b.name) || slug}`, mimeType: JSON_TYPE });
    for (const p of await rowsOf(env, ['brands', 'personas', 'list'], [slug]))
      out.push({
        uri: `adops://brands/${enc(slug)}/personas/${enc(str(p.slug))}`,
        name: `Persona ${str(p.name) || str(p.slug)} (${slug})`,
        mimeType: JSON_TYPE,
      });
    for (const d of await rowsOf(env, ['brands', 'documents', 'list'], [slug]))
      out.push({
        uri: `adops://brands/${enc(slug)}/documents/${enc(str(d.id))}`,
        name: `Document ${str(d.filename) || str(d.id)} (${slug})`,
        mimeType: JSON_TYPE,
      });
  }
  return out;
}

/** The URI templates of the Context resources (resources/templates/list). */
export const RESOURCE_TEMPLATES = [
  { uriTemplate: 'adops://brands/{slug}', name: 'Brand', mimeType: JSON_TYPE },
  { uriTemplate: 'adops://brands/{slug}/personas/{personaSlug}', name: 'Persona', mimeType: JSON_TYPE },
  { uriTemplate: 'adops://brands/{slug}/documents/{documentId}', name: 'Document (its metadata)', mimeType: JSON_TYPE },
] as const;

/** The adops command (words and positionals) that reads a resource URI; undefined for a URI of no resource. */
export function commandOfUri(uri: string): { words: string[]; positionals: string[] } | undefined {
  const m = /^adops:\/\/brands\/([^/]+)(?:\/(personas|documents)\/([^/]+))?$/.exec(uri);
  if (!m) return undefined;
  try {
    const slug = decodeURIComponent(m[1]!);
    if (!m[2]) return { words: ['brands', 'get'], positionals: [slug] };
    return { words: ['brands', m[2], 'get'], positionals: [slug, decodeURIComponent(m[3]!)] };
  } catch {
    return undefined;
  }
}

/** resources/read: the row as JSON text, through the boundary. */
export async function readContextResource(env: ToolEnv, uri: string): Promise<{ uri: string; mimeType: string; text: string } | undefined> {
  const command = commandOfUri(uri);
  if (!command) return undefined;
  const row = await oneOf(env, command.words, command.positionals);
  return { uri, mimeType: JSON_TYPE, text: jsonText(cleaned(row), 2) };
}
