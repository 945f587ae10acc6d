#!/usr/bin/env node
// The floor of bench/sandbox-start.js's throughput figure: a trivial node:http
// server that sends page bodies captured from the sandbox, byte for byte, with
// the sandbox's content type. GET /page/<i> answers body i (i modulo their
// number). Reads the bodies (a JSON array of strings) from the file named on
// the command line; prints one JSON line {url} when ready; exits on SIGTERM or
// when stdin closes.
//
//   node bench/lib/trivial-pages.js BODIES.json
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const bodies = JSON.parse(readFileSync(process.argv[2], 'utf8')).map((text) => Buffer.from(text, 'utf8'));
const server = createServer((req, res) => {
  const i = Number(/^\/page\/(\d+)$/.exec(req.url ?? '')?.[1] ?? NaN);
  const body = Number.isInteger(i) ? bodies[i % bodies.length] : undefined;
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  console.log(JSON.stringify({ url: `http://127.0.0.1:${port}` }));
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
