#!/usr/bin/env node
// CLI start-up benchmark (issues #4, #8, #16): `node -e 0`, `adops --version`,
// `adops --help`, a command's help (`adops observe campaigns list --help`) and
// one stored page with `--json` (`adops observe campaigns --json`) against a
// local sandbox the bench starts itself, plus the floor of that read: the same
// page fetched by a bare `node -e` script with node:http (what any client on
// node pays). N runs each, interleaved so the machine's load hits all alike;
// each run's wall and CPU time (user + system of that child alone,
// bench/lib/timed-run.js); medians, and ratios to `node -e 0` of the same run
// (the runs, the sandbox and the floor: bench/lib/start-up-runs.js, shared with bench/sea-startup.js).
// The environment is clean: no NODE_OPTIONS, no NODE_EXTRA_CA_CERTS.
// `--write` puts the table in docs/performance.md between the "cli-startup" markers.
// Each target is also printed as a `figure:` JSON line for bench/run-all.js.
// Usage: node bench/startup.js [--runs N] [--write]   (needs `npm run build`)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLOOR_SCRIPT, figureLines, interleavedRuns, loadText, startSandbox, tableLines } from './lib/start-up-runs.js';
import { cleanEnv } from './lib/timed-run.js';
import { scratchDir } from './lib/scratch-dir.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// What `adops` runs once installed (package.json "bin").
const BIN = join(ROOT, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin.adops);
const args = process.argv.slice(2);
const RUNS = Math.max(11, Number(args[args.indexOf('--runs') + 1]) || 15);
const WRITE = args.includes('--write');

if (!existsSync(join(ROOT, 'dist', 'bundle', 'main.js'))) {
  console.error('build first: npm run build');
  process.exit(2);
}

const config = scratchDir('startup');
const env = cleanEnv({ ADOPS_CONFIG_DIR: config });

const loadBefore = loadText();
const sandbox = await startSandbox([process.execPath, BIN], env);
try {
  const { baseUrl, apiKey } = JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')).profiles.sandbox;
  const read = ['observe', 'campaigns', '--json'];
  const cmdHelp = ['observe', 'campaigns', 'list', '--help'];
  const adops = (words, label, target) => ({ argv: [process.execPath, BIN, ...words], env, label, target });
  const { base, rows } = interleavedRuns(
    {
      'node -e 0': { argv: [process.execPath, '-e', '0'], env, label: '`node -e 0`' },
      floor: {
        argv: [process.execPath, '-e', FLOOR_SCRIPT],
        env: { ...env, U: baseUrl, K: apiKey },
        label: 'floor: the same page with bare node:http (`node -e`)',
      },
      '--version': adops(['--version'], '`adops --version`', 1.3),
      '--help': adops(['--help'], '`adops --help`', 1.3),
      'command --help': adops(cmdHelp, `\`adops ${cmdHelp.join(' ')}\``, 1.3),
      'stored read': adops(read, `\`adops ${read.join(' ')}\` (one stored page)`, 2),
    },
    RUNS,
  );
  const header = `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.versions.node}, ${RUNS} interleaved runs each, medians; load average (1, 5, 15 min) ${loadBefore} before, ${loadText()} after:`;
  const lines = tableLines(header, rows);
  console.log(lines.join('\n'));
  const baseline = `node -e 0 ${base.wall.toFixed(1)} ms wall, ${base.cpu.toFixed(1)} ms CPU`;
  for (const line of figureLines(rows, (r) => `${r.label} × node -e 0 (wall, CPU)`, baseline)) console.log(line);
  if (WRITE) {
    const file = join(ROOT, 'docs', 'performance.md');
    const begin = '<!-- cli-startup:begin (written by `node bench/startup.js --write`) -->';
    const end = '<!-- cli-startup:end -->';
    let doc = existsSync(file) ? readFileSync(file, 'utf8') : '# Performance\n';
    const section = `${begin}\n${lines.join('\n')}\n${end}`;
    if (doc.includes(begin)) doc = doc.replace(new RegExp(`${begin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*?${end}`), section);
    else doc += `\n## CLI start-up\n\nHow fast \`adops\` starts compared with bare node.\n\n${section}\n`;
    writeFileSync(file, doc);
    console.log(`\nwritten to ${file}`);
  }
  if (rows.some((r) => !r.ok)) process.exitCode = 1;
} finally {
  sandbox.kill('SIGTERM');
}
