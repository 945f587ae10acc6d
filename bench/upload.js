#!/usr/bin/env node
// Upload benchmark (issue 8), loopback only, against a sandbox it starts itself
// (in-memory store; it deletes its files when it stops):
//   1. one video of SIZE (default 1 GiB, sparse behind a real MP4 header):
//      `adops assets upload` next to `curl -T` and a bare node:http script
//      (the file piped, nothing else) to a fresh upload URL of the same
//      sandbox; throughput of each, the ratios, CPU and adops's peak RSS
//      (/usr/bin/time);
//   2. 200 small PNGs with `--concurrency 1` and `--concurrency 8`.
// Temp files are removed at the end, also on failure. Prints a Markdown table;
// `--write` puts it in docs/performance.md between the "cli-uploads" markers.
// Usage: node bench/upload.js [--size-mib N] [--files N] [--rounds N] [--write]   (needs `npm run build`)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { scratchDir } from './lib/scratch-dir.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin.adops);
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt);
const SIZE = opt('--size-mib', 1024) * 1024 * 1024;
const FILES = opt('--files', 200);
const ROUNDS = opt('--rounds', 5);
const WRITE = args.includes('--write');
const TIMEOUT_MS = 10 * 60 * 1000;

if (!existsSync(join(ROOT, 'dist', 'bundle', 'main.js'))) {
  console.error('build first: npm run build');
  process.exit(2);
}
if (spawnSync('curl', ['--version']).status !== 0 || !existsSync('/usr/bin/time')) {
  console.error('needs curl and /usr/bin/time');
  process.exit(2);
}

const work = scratchDir('upload');
const config = join(work, 'config');
const env = () => ({ PATH: process.env.PATH, HOME: process.env.HOME, ADOPS_CONFIG_DIR: config });

// A minimal MP4 (ftyp + mdat header) and PNG, like test/unit/uploads/media-samples.ts.
const u32 = (n) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const text = (s) => [...Buffer.from(s, 'latin1')];
const mp4Head = () => Buffer.from([...u32(24), ...text('ftypisom'), ...u32(0x200), ...text('isommp41'), ...u32(16), ...text('mdat'), 0, 0, 0, 0, 0, 0, 0, 0]);
function png(width, height) {
  const chunk = (type, data) => {
    const body = Buffer.from([...text(type), ...data]);
    return [...u32(data.length), ...body, ...u32(crc32(body))];
  };
  return Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...chunk('IHDR', [...u32(width), ...u32(height), 8, 6, 0, 0, 0]), ...chunk('IEND', [])]);
}

function startSandbox() {
  return new Promise((resolve, reject) => {
    // No scheduled ingestion: a refresh of the stored reads every 30 s would land on whichever run it meets.
    const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--data', ':memory:', '--login', '--ingest-every', '0'], {
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
}

function run(cmd, argv) {
  const started = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { env: env(), encoding: 'utf8', timeout: TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
  const s = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`${cmd} ${argv.slice(0, 4).join(' ')} … failed (${r.status}): ${String(r.stderr).slice(-500)}`);
  return { s, stdout: r.stdout, stderr: r.stderr };
}

const mib = (bytes, s) => bytes / 1024 / 1024 / s;
let sandbox;
try {
  sandbox = await startSandbox();
  const big = join(work, 'big.mp4');
  writeFileSync(big, mp4Head());
  truncateSync(big, SIZE);

  // curl -T to a fresh reservation's URL (reserved and finalized with adops, timed apart);
  // `Expect:` off so curl does not wait for a 100 Continue. Then adops, the whole command.
  // Both under /usr/bin/time (CPU, peak RSS). ROUNDS pairs, the order alternating, each run
  // after a `sync` so it does not pay for the write-back of the one before (the sandbox
  // writes every byte to disk); the Asset is deleted after each (the quota), untimed.
  const timed = (cmd, argv) => {
    spawnSync('sync');
    const t = run('/usr/bin/time', ['-f', 'cpu-s %U %S peak-rss-kib %M', cmd, ...argv]);
    const m = /cpu-s ([\d.]+) ([\d.]+) peak-rss-kib (\d+)/.exec(t.stderr);
    return { ...t, cpu: Number(m?.[1]) + Number(m?.[2]), rssKib: Number(m?.[3]) };
  };
  const remove = (id) => run(process.execPath, [BIN, 'assets', 'delete', id, '--yes']);
  const curlOnce = (i) => {
    const reserved = JSON.parse(run(process.execPath, [BIN, 'assets', 'reserve', '--filename', `curl${i}.mp4`, '--json']).stdout);
    const t = timed('curl', ['-sS', '--fail', '-T', big, '-H', 'Content-Type: video/mp4', '-H', 'Expect:', reserved.uploadUrl, '-o', '/dev/null']);
    run(process.execPath, [BIN, 'assets', 'finalize', reserved.id, '--json']);
    remove(reserved.id);
    return t;
  };
  const adopsOnce = () => {
    rmSync(join(config, 'uploads'), { recursive: true, force: true }); // else the next run finds it uploaded
    const t = timed(process.execPath, [BIN, 'assets', 'upload', big, '--json']);
    const row = JSON.parse(t.stdout)[0];
    if (row?.state !== 'ready' || row.sizeBytes !== SIZE) throw new Error(`adops upload did not end ready at ${SIZE} bytes`);
    remove(row.id);
    return t;
  };
  // The floor of any Node client: a bare node:http script that pipes the file to the URL
  // (no hash, no journal, no CLI), run the same way. What adops can be judged against
  // besides curl: where it sits between the two.
  const bareScript = join(work, 'bare-put.cjs');
  writeFileSync(
    bareScript,
    [
      'const [url, file, size] = process.argv.slice(2);',
      "const req = require('node:http').request(url, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-length': size } }, (res) => {",
      '  res.resume();',
      "  res.on('end', () => { if (res.statusCode !== 200) process.exitCode = 1; });",
      '});',
      "require('node:fs').createReadStream(file, { highWaterMark: 1024 * 1024 }).pipe(req);",
    ].join('\n'),
  );
  const bareOnce = (i) => {
    const reserved = JSON.parse(run(process.execPath, [BIN, 'assets', 'reserve', '--filename', `bare${i}.mp4`, '--json']).stdout);
    const t = timed(process.execPath, [bareScript, reserved.uploadUrl, big, String(SIZE)]);
    run(process.execPath, [BIN, 'assets', 'finalize', reserved.id, '--json']);
    remove(reserved.id);
    return t;
  };
  // One untimed upload of each first: the sandbox's storage path and the page cache warm up for all.
  curlOnce('warm');
  adopsOnce();
  bareOnce('warm');
  const curls = [];
  const ups = [];
  const bares = [];
  // The order turns each round (curl, adops, bare; adops, bare, curl; ...): none always goes first.
  const sides = [() => curls.push(curlOnce(curls.length)), () => ups.push(adopsOnce()), () => bares.push(bareOnce(bares.length))];
  for (let i = 0; i < ROUNDS; i++) for (let k = 0; k < 3; k++) sides[(i + k) % 3]();
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const curl = { s: median(curls.map((c) => c.s)), cpu: median(curls.map((c) => c.cpu)) };
  const up = { s: median(ups.map((u) => u.s)), cpu: median(ups.map((u) => u.cpu)) };
  const bare = { s: median(bares.map((b) => b.s)), cpu: median(bares.map((b) => b.cpu)) };
  // adops's rate as a share of curl's (and of the bare script's), round by round (each round's runs back to back).
  const ratios = curls.map((c, i) => c.s / ups[i].s);
  const bareRatios = curls.map((c, i) => c.s / bares[i].s);
  const overBare = bares.map((b, i) => b.s / ups[i].s);
  const rssKib = Math.max(...ups.map((u) => u.rssKib));

  // Many small files; the first also gives the RSS of an upload of almost nothing, for scale.
  const small = join(work, 'small');
  mkdirSync(small);
  for (let i = 0; i < FILES; i++) writeFileSync(join(small, `p${String(i).padStart(4, '0')}.png`), png(i + 1, 1));
  const tiny = run('/usr/bin/time', ['-f', 'peak-rss-kib %M', process.execPath, BIN, 'assets', 'upload', join(small, 'p0000.png'), '--json']);
  const tinyKib = Number(/peak-rss-kib (\d+)/.exec(tiny.stderr)?.[1]);
  rmSync(join(config, 'uploads'), { recursive: true, force: true });
  const seq = run(process.execPath, [BIN, 'assets', 'upload', small, '--concurrency', '1', '--json']);
  rmSync(join(config, 'uploads'), { recursive: true, force: true }); // else the second run finds them uploaded
  const par = run(process.execPath, [BIN, 'assets', 'upload', small, '--concurrency', '8', '--json']);

  const sizeText = SIZE >= 1024 ** 3 ? `${SIZE / 1024 ** 3} GiB` : `${SIZE / 1024 ** 2} MiB`;
  const table = [
    `Measured ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} cores (shared; load average ${loadavg()[0].toFixed(1)} at the end), loopback sandbox (in-memory store, files on local disk, no scheduled ingestion), one untimed upload of each first.`,
    '',
    '| Case | Time | Throughput | Note |',
    '| --- | --- | --- | --- |',
    `| ${sizeText} video, \`curl -T\` | ${curl.s.toFixed(2)} s | ${mib(SIZE, curl.s).toFixed(0)} MiB/s | the PUT alone; median of ${ROUNDS}; CPU ${curl.cpu.toFixed(2)} s (user+sys) |`,
    `| ${sizeText} video, \`adops assets upload\` | ${up.s.toFixed(2)} s | ${mib(SIZE, up.s).toFixed(0)} MiB/s | whole command (start, sniff, reserve, PUT, finalize); median of ${ROUNDS}; CPU ${up.cpu.toFixed(2)} s; ${(median(ratios) * 100).toFixed(0)}% of curl's rate (median of the rounds' ratios: ${ratios.map((r) => `${(r * 100).toFixed(0)}%`).join(', ')}); peak RSS ${(rssKib / 1024).toFixed(0)} MiB (${(tinyKib / 1024).toFixed(0)} MiB for a 60-byte PNG) |`,
    `| ${sizeText} video, bare \`node:http\` script | ${bare.s.toFixed(2)} s | ${mib(SIZE, bare.s).toFixed(0)} MiB/s | the PUT alone, the file piped (no hash, no journal, no CLI): Node's floor; median of ${ROUNDS}; CPU ${bare.cpu.toFixed(2)} s; ${(median(bareRatios) * 100).toFixed(0)}% of curl's rate (rounds: ${bareRatios.map((r) => `${(r * 100).toFixed(0)}%`).join(', ')}); adops ran at ${(median(overBare) * 100).toFixed(0)}% of its rate |`,
    `| ${FILES} PNGs, \`--concurrency 1\` | ${seq.s.toFixed(2)} s | ${(FILES / seq.s).toFixed(0)} files/s | |`,
    `| ${FILES} PNGs, \`--concurrency 8\` | ${par.s.toFixed(2)} s | ${(FILES / par.s).toFixed(0)} files/s | ${(seq.s / par.s).toFixed(1)}× faster |`,
  ].join('\n');
  console.log(table);
  if (WRITE) {
    const doc = join(ROOT, 'docs', 'performance.md');
    const text = readFileSync(doc, 'utf8');
    const re = /(<!-- cli-uploads:start -->\n)[\s\S]*?(\n<!-- cli-uploads:end -->)/;
    if (!re.test(text)) throw new Error('docs/performance.md has no cli-uploads markers');
    writeFileSync(doc, text.replace(re, `$1${table}$2`));
    console.log('written to docs/performance.md');
  }
} catch (err) {
  console.error(String(err?.stack ?? err));
  process.exitCode = 1;
} finally {
  sandbox?.child.kill('SIGTERM');
}
