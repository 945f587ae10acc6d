// Judges answers against the published OpenAPI document with ajv, so the
// document and the code cannot drift: the status must be documented for the
// operation and the JSON body must match the schema documented for it.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { OPERATIONS } from '../../src/contract/operations.js';
import type { OperationDef } from '../../src/contract/operations.js';
import { startTestSandbox, type TestResponse } from './sandbox.js';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

type Doc = { paths: Record<string, Record<string, any>>; components: { schemas?: Record<string, object>; [kind: string]: unknown } };

const BASE = 'https://adops.example/openapi.json';
/** The id a component schema is registered under on its own (names here are plain: no '/', '~' or '%'). */
const componentId = (name: string) => `https://adops.example/components/schemas/${name}`;

/** The operation whose template matches, fewest path parameters first (/assets/uploads before /assets/{id}). */
export function operationFor(method: string, path: string): OperationDef | undefined {
  const candidates = OPERATIONS.filter((o) => o.method === method.toUpperCase())
    .filter((o) => new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path))
    .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  return candidates[0];
}

export class ContractChecker {
  readonly #ajv: Ajv2020;
  readonly #doc: Doc;
  readonly #compiled = new Map<string, ValidateFunction>();
  /** `METHOD template status` of every answer judged, for coverage assertions. */
  readonly seen = new Set<string>();
  readonly failures: string[] = [];

  constructor(doc: Doc) {
    // Refs inside the document point at its components. A ref to a whole component schema is pointed at that
    // schema registered alone, so ajv compiles it once and every operation's validator calls it; a ref into a
    // registered document (BASE#/components/...) is compiled anew for every operation that reaches it (ajv caches
    // it per root schema only): ~7 s of CPU to compile the document's 446 answers, ~5 s per worker (#37 session 5).
    const text = JSON.stringify(doc)
      .replace(/"#\/components\/schemas\/([^"/~%]+)"/g, (_ref, name: string) => `"${componentId(name)}"`)
      .replaceAll('"#/components/', `"${BASE}#/components/`);
    this.#doc = JSON.parse(text) as Doc;
    this.#ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    addFormats(this.#ajv);
    this.#ajv.addSchema({ $id: BASE, components: this.#doc.components });
    for (const [name, schema] of Object.entries(this.#doc.components.schemas ?? {})) this.#ajv.addSchema(schema, componentId(name));
  }

  /** Judge one answer; a failure is recorded (and returned) rather than thrown, so a test can list them all. */
  check(method: string, path: string, res: TestResponse): string | null {
    const url = new URL(path, 'http://x');
    const op = operationFor(method, url.pathname);
    if (!op) return null; // not an operation (unknown path, storage, admin): nothing documented
    const status = String(res.status);
    this.seen.add(`${op.method} ${op.path} ${status}`);
    const documented = this.#doc.paths[op.path]?.[op.method.toLowerCase()]?.responses?.[status];
    const fail = (why: string) => {
      const line = `${op.id} ${method} ${url.pathname} → ${status}: ${why}`;
      this.failures.push(line);
      return line;
    };
    if (!documented) return fail('status not documented');
    const schema = documented.content?.['application/json']?.schema;
    if (!schema) return res.text === '' ? null : fail('a body where none is documented');
    const key = `${op.id} ${status}`;
    let validate = this.#compiled.get(key);
    if (!validate) {
      validate = this.#ajv.compile(schema);
      this.#compiled.set(key, validate);
    }
    if (validate(res.body)) return null;
    return fail(this.#ajv.errorsText(validate.errors?.slice(0, 3)) + ` body=${res.text.slice(0, 200)}`);
  }
}

let published: Promise<ContractChecker> | undefined;

/**
 * A checker of the document a fresh sandbox publishes, built once per worker and kept: the document depends on
 * the routes only, and the validators ajv compiles from it are the same for every file. Building it per test
 * file (a sandbox, the document, ajv and each schema compiled anew) cost ~0.3-0.5 s of CPU per file that
 * talks to a sandbox (#37 suite); the projects that share a module graph (isolate: false) keep this one.
 */
export function publishedChecker(): Promise<ContractChecker> {
  published ??= (async () => {
    const sb = await startTestSandbox();
    try {
      return new ContractChecker((await (await fetch(`${sb.url}/openapi.json`)).json()) as Doc);
    } finally {
      await sb.close();
    }
  })().catch((err: unknown) => {
    published = undefined;
    throw err;
  });
  return published;
}
