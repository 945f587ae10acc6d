#!/usr/bin/env node
// `npm run gen`: regenerate the committed files derived from the contract and
// the command registry, after `npm run build`. Tests fail when any is stale.
//   src/contract/generated/operation-inputs.json  (what each operation accepts; the CLI reads it)
//   src/contract/generated/resource-fields.json   (each noun's --fields paths, from its rows' response schemas)
//   src/contract/generated/request-validators.ts  (ajv's standalone validators of each request body and
//                                                  headers; the CLI loads them lazily to check before sending)
//   docs/cli.md                                    (the command reference)
//   completions/adops.{bash,zsh,fish}
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv[2];

const { operationInputs } = await import(`${root}dist/contract/operation-inputs.js`);
writeFileSync(`${root}src/contract/generated/operation-inputs.json`, JSON.stringify(operationInputs(), null, 1) + '\n');
const { resourceFields } = await import(`${root}dist/contract/resource-fields.js`);
writeFileSync(`${root}src/contract/generated/resource-fields.json`, JSON.stringify(resourceFields(), null, 1) + '\n');
const { requestValidatorsSource } = await import(`${root}dist/contract/request-schemas.js`);
writeFileSync(`${root}src/contract/generated/request-validators.ts`, requestValidatorsSource());
if (only === 'inputs') process.exit(0);

const { getRegistry } = await import(`${root}dist/commands/index.js`);
const { commandReference } = await import(`${root}dist/cli/docs.js`);
const { completionScript, SHELLS } = await import(`${root}dist/cli/completion.js`);
const registry = getRegistry();
writeFileSync(`${root}docs/cli.md`, commandReference(registry));
for (const shell of SHELLS) writeFileSync(`${root}completions/adops.${shell}`, completionScript(registry, shell));
