#!/usr/bin/env node
// `node scripts/mcp-conformance.mjs` (CI: .ci/run, after the build): the official MCP conformance suite
// (@modelcontextprotocol/conformance, `conformance server --url …`) against `adops mcp --http` (the built
// binary) serving a sandbox of its own (`adops sandbox serve --port 0 --data :memory:`), seeded with one
// Skill and one Brand so prompts/list and resources/list have an item to check.
//
// Every server scenario the suite lists is either run or skipped here with the reason (SCENARIOS); a
// scenario this table does not name fails the run, so a new suite version is read, not ignored. A run
// fails on any FAILURE check; WARNING checks are printed and counted. `--scenario NAME` runs one.
// Everything it starts is stopped at the end; its files live in a temp dir removed at the end.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const adops = join(root, 'bin', 'adops.js');
const suite = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

/** A skip's reason: the scenario checks a fixture of the suite's reference server, or a feature adops mcp does not offer. */
const fixture = (what) => `checks the suite's own fixture ${what}, not a tool, prompt or resource of the service`;
const RUN = 'run';
const SCENARIOS = {
  'server-initialize': RUN,
  ping: RUN,
  'tools-list': RUN,
  'prompts-list': RUN,
  'resources-list': RUN,
  'dns-rebinding-protection': RUN,
  'server-sse-multiple-streams': RUN,
  'server-sse-polling': RUN,
  'logging-set-level': 'adops mcp does not declare the logging capability (notes go to stderr, results carry their own)',
  'completion-complete': 'adops mcp does not declare the completions capability; ' + fixture('prompt test_prompt_with_arguments'),
  'tools-call-simple-text': fixture('tool test_simple_text'),
  'tools-call-image': fixture('tool test_image_content'),
  'tools-call-audio': fixture('tool test_audio_content'),
  'tools-call-embedded-resource': fixture('tool test_embedded_resource'),
  'tools-call-mixed-content': fixture('tool test_multiple_content_types'),
  'tools-call-with-logging': fixture('tool test_tool_with_logging') + '; no logging capability',
  'tools-call-error':
    fixture('tool test_error_handling') +
    ' (an unknown tool is a protocol error, -32602, as the spec says; tool errors are isError results, tested through the SDK client in test/e2e/mcp-*.test.ts)',
  'tools-call-with-progress': fixture('tool test_tool_with_progress'),
  'tools-call-sampling': fixture('tool test_sampling') + '; adops mcp never asks the client to sample',
  'tools-call-elicitation': fixture('tool test_elicitation') + '; adops mcp never elicits',
  'json-schema-2020-12': fixture('tool json_schema_2020_12_tool'),
  'elicitation-sep1034-defaults': fixture('tool test_elicitation_sep1034_defaults') + '; adops mcp never elicits',
  'elicitation-sep1330-enums': fixture('tool test_elicitation_sep1330_enums') + '; adops mcp never elicits',
  'resources-read-text': fixture('resource test://static-text') + ' (resources are adops://… URIs of the organization)',
  'resources-read-binary': fixture('resource test://static-binary'),
  'resources-templates-read': fixture('template test://template/{id}/data'),
  'resources-subscribe': 'adops mcp does not declare resource subscriptions (resources are read on demand from the service)',
  'resources-unsubscribe': 'adops mcp does not declare resource subscriptions',
  'prompts-get-simple': fixture('prompt test_simple_prompt') + " (a Skill's slug cannot hold an underscore)",
  'prompts-get-with-args': fixture('prompt test_prompt_with_arguments') + '; Skills take no arguments',
  'prompts-get-embedded-resource': fixture('prompt test_prompt_with_embedded_resource'),
  'prompts-get-with-image': fixture('prompt test_prompt_with_image'),
};

/**
 * The suite's bundle imports fs.globSync (Node 22) for a command not used here (tier-check); on Node 20 a
 * resolve hook hands it node:fs plus a globSync that throws, so the `server` command loads.
 */
function suiteNodeArgs() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return [];
  const hooks = pathToFileURL(join(root, 'scripts', 'mcp-conformance-node20.mjs')).href;
  return ['--import', `data:text/javascript,import{register}from'node:module';register(${JSON.stringify(hooks)})`];
}

const conformance = (args, opts = {}) => spawnSync(process.execPath, [...suiteNodeArgs(), suite, ...args], { encoding: 'utf8', ...opts });

/** The server scenarios the installed suite lists (`conformance list --server`). */
function listedScenarios() {
  const r = conformance(['list', '--server']);
  if (r.status !== 0) throw new Error(`conformance list failed: ${r.stderr}`);
  return [...r.stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
}

/** Start a child and wait for a line of its stdout or stderr to match; resolves with the match and the child. */
function startUntil(args, env, pattern, what) {
  const child = spawn(process.execPath, [adops, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let seen = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start in 30 s:\n${seen}`)), 30_000);
    const look = (chunk) => {
      seen += chunk;
      const m = pattern.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve({ child, match: m, seen });
      }
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.on('exit', (code) => reject(new Error(`${what} exited ${code} before it listened:\n${seen}`)));
  });
}

function adopsRun(args, env) {
  const r = spawnSync(process.execPath, [adops, ...args], { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`adops ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
}

/** The suite as a child that may run beside others (added to `children`, stopped with them): its exit code and all it printed; killed after 120 s. */
function conformanceAsync(args, children) {
  const child = spawn(process.execPath, [...suiteNodeArgs(), suite, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return new Promise((resolve) => {
    child.on('error', (err) => (output += `${err.message}\n`));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ status: code, output });
    });
  });
}

/**
 * One scenario run: its checks (checks.json under the output dir), and the suite's exit code. The scenarios
 * run side by side (#37: a run spends most of its time waiting on the scenarios' own timers, not on a CPU).
 */
async function runScenario(name, url, outDir, children) {
  const dir = join(outDir, name);
  const started = Date.now();
  const r = await conformanceAsync(['server', '--url', url, '--scenario', name, '-o', dir], children);
  const files = existsSync(dir) ? readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('checks.json')) : [];
  const checks = files.flatMap((f) => JSON.parse(readFileSync(join(dir, String(f)), 'utf8')));
  return { status: r.status, checks, output: r.output, seconds: Math.round((Date.now() - started) / 1000) };
}

/** What a list scenario saw (tools, prompts, resources): none seen would check nothing, so it fails. */
const COUNTED = { 'tools-list': 'toolCount', 'prompts-list': 'promptCount', 'resources-list': 'resourceCount' };

function summary(name, { status, checks, output, seconds }) {
  const count = (s) => checks.filter((c) => c.status === s).length;
  const seen = COUNTED[name] && checks.find((c) => c.id === name)?.details?.[COUNTED[name]];
  const empty = COUNTED[name] !== undefined && !(seen > 0);
  const failed = count('FAILURE') > 0 || status !== 0 || count('SUCCESS') + count('WARNING') === 0 || empty;
  const listed = COUNTED[name] ? ` (${seen ?? 0} ${COUNTED[name].replace('Count', 's')} listed)` : '';
  console.log(
    `${failed ? 'FAIL' : 'ok  '} ${name}: ${count('SUCCESS')} passed, ${count('FAILURE')} failed, ${count('WARNING')} warnings${listed} in ${seconds} s`,
  );
  for (const c of checks.filter((x) => x.status === 'FAILURE' || x.status === 'WARNING'))
    console.log(`       ${c.status} ${c.id}: ${c.errorMessage ?? c.description}`);
  if (failed && checks.length === 0)
    console.log(
      output
        .split('\n')
        .map((l) => `       ${l}`)
        .join('\n'),
    );
  return failed;
}

async function main() {
  const only = process.argv.includes('--scenario') ? process.argv[process.argv.indexOf('--scenario') + 1] : undefined;
  const listed = listedScenarios();
  const unknown = listed.filter((s) => !(s in SCENARIOS));
  if (unknown.length) throw new Error(`the suite lists scenarios this script does not classify (run or skip, with why): ${unknown.join(', ')}`);
  const toRun = listed.filter((s) => SCENARIOS[s] === RUN && (only === undefined || s === only));
  if (only !== undefined && toRun.length === 0) throw new Error(`--scenario ${only}: not a scenario this script runs`);

  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'adops-mcp-conformance-'));
  const children = [];
  const stop = () => {
    for (const c of children) c.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => {
      stop();
      process.exit(130);
    });
  try {
    const base = { ...process.env, ADOPS_CONFIG_DIR: join(work, 'config'), XDG_STATE_HOME: join(work, 'state'), NO_COLOR: '1' };
    delete base.ADOPS_API_KEY;
    const sb = await startUntil(
      ['sandbox', 'serve', '--port', '0', '--data', ':memory:'],
      base,
      /^(?=[\s\S]*every permission)[\s\S]*listening on (http:\/\/\S+)\n/,
      'the sandbox',
    );
    children.push(sb.child);
    const key = /^\s+(acr_\S+)\s.*every permission/m.exec(sb.seen)?.[1];
    if (!key) throw new Error(`no demo key with every permission in:\n${sb.seen}`);
    const env = { ...base, ADOPS_BASE_URL: sb.match[1], ADOPS_API_KEY: key };
    adopsRun(
      ['skills', 'create', '--slug', 'conformance-check', '--name', 'Conformance check', '--description', 'A Skill for prompts/list', '--body', '# Check\n'],
      env,
    );
    adopsRun(['brands', 'create', '--slug', 'conformance-brand', '--name', 'Conformance brand', '--description', 'A Brand for resources/list'], env);
    const mcp = await startUntil(['mcp', '--http', '127.0.0.1:0'], env, /mcp listening on (http:\/\/\S+)\n/, 'adops mcp --http');
    children.push(mcp.child);
    const url = mcp.match[1];
    console.log(`mcp-conformance: @modelcontextprotocol/conformance against ${url} (adops mcp --http, read-only, a sandbox seeded with a Skill and a Brand)`);
    let failures = 0;
    console.log(`mcp-conformance: the sandbox and adops mcp up in ${Math.round((Date.now() - started) / 1000)} s`);
    const results = await Promise.all(toRun.map((name) => runScenario(name, url, join(work, 'results'), children)));
    toRun.forEach((name, i) => {
      if (summary(name, results[i])) failures++;
    });
    for (const name of listed.filter((s) => SCENARIOS[s] !== RUN && only === undefined)) console.log(`skip ${name}: ${SCENARIOS[name]}`);
    console.log(`mcp-conformance: ${toRun.length} run, ${failures} failed, ${listed.length - toRun.length} skipped as not applicable`);
    return failures === 0 ? 0 : 1;
  } finally {
    stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`mcp-conformance: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
