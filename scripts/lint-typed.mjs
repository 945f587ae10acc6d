#!/usr/bin/env node
// `npm run lint`'s type check and typescript-eslint, on ONE TypeScript program (#37, docs/performance.md
// "#37 (session 3): CI"). `tsc -p test && eslint src test` built the program of src/ and test/ twice, and the
// type-checked rules asked the second checker again for types the first had already worked out: ~25 s of CPU
// of ~105. Here the program is built and fully checked once, as `tsc -p test` does (every diagnostic it reports,
// and its incremental state file, so a second run on an unchanged tree re-checks little), then handed to ESLint
// (typescript-eslint's parserOptions.programs) whose rules read the checker that already holds the answers.
// Both halves always run and report; the exit status is 1 if either found an error.
// Usage: node scripts/lint-typed.mjs [--project TSCONFIG] [--config ESLINT-CONFIG] [PATH...]
// (default: test/tsconfig.json, eslint.config.js, src test; paths and files relative to the working directory).
import { ESLint } from 'eslint';
import ts from 'typescript';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: { project: { type: 'string', default: 'test/tsconfig.json' }, config: { type: 'string' } },
  allowPositionals: true,
});
const paths = positionals.length > 0 ? positionals : ['src', 'test'];

// ---- the type check (tsc -p PROJECT) ----
const host = {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => {
    throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  },
};
const config = ts.getParsedCommandLineOfConfigFile(values.project, undefined, host);
if (!config) throw new Error(`cannot read ${values.project}`);
const builder = ts.createIncrementalProgram({
  rootNames: config.fileNames,
  options: config.options,
  projectReferences: config.projectReferences,
  configFileParsingDiagnostics: config.errors,
});
const diagnostics = [
  ...builder.getConfigFileParsingDiagnostics(),
  ...builder.getOptionsDiagnostics(),
  ...builder.getGlobalDiagnostics(),
  ...builder.getSyntacticDiagnostics(),
  ...builder.getSemanticDiagnostics(),
];
// noEmit: writes the incremental state file only (tsBuildInfoFile), as tsc does.
builder.emit();
const formatHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: ts.sys.getCurrentDirectory, getNewLine: () => ts.sys.newLine };
if (diagnostics.length > 0) {
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  process.stdout.write(format(ts.sortAndDeduplicateDiagnostics(diagnostics), formatHost));
  console.log(`lint: ${diagnostics.length} type error(s) in ${values.project}`);
}

// ---- typescript-eslint over PATHS, on that program ----
const eslint = new ESLint({
  ...(values.config ? { overrideConfigFile: values.config } : {}),
  // For the TypeScript files only (the config's typed block): other files keep their own parser.
  overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parserOptions: { programs: [builder.getProgram()], project: null } } }],
});
const results = await eslint.lintFiles(paths);
const formatter = await eslint.loadFormatter('stylish');
const report = await formatter.format(results);
if (report) process.stdout.write(report);
const lintErrors = results.reduce((n, r) => n + r.errorCount + r.fatalErrorCount, 0);
process.exitCode = diagnostics.length > 0 || lintErrors > 0 ? 1 : 0;
