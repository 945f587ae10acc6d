// A loopback stand-in for the storage host between adops and the sandbox's
// storage endpoint: it records each PUT's headers (to prove the API key never
// goes there) and can misbehave on purpose: stall after some bytes (so a test
// can kill adops mid-PUT) or lose the answer of a complete PUT once.
import { spawn } from 'node:child_process';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BIN, ROOT, baseEnv } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox, type TestSandboxOptions } from '../helpers/sandbox.js';

export type ProxyMode =
  | 'pass'
  | { stallAfter: number }
  | 'lose-answer-once'
  /** Forward `holdAfter` bytes, call `held()`, and go on once the promise it returns resolves. */
  | { holdAfter: number; held: () => Promise<void> };

export interface UploadProxy {
  url: string;
  mode: ProxyMode;
  puts: Array<{ headers: IncomingHttpHeaders; status?: number | undefined }>;
  /** Bytes of the current PUT forwarded so far. */
  forwarded: number;
  close(): Promise<void>;
}

export async function startUploadProxy(upstream: string): Promise<UploadProxy> {
  const state: UploadProxy = { url: '', mode: 'pass', puts: [], forwarded: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const record: UploadProxy['puts'][number] = { headers: { ...req.headers } };
    state.puts.push(record);
    state.forwarded = 0;
    const mode = state.mode;
    const up = request(upstream + req.url, { method: req.method, headers: req.headers }, (ur) => {
      record.status = ur.statusCode;
      if (mode === 'lose-answer-once') {
        state.mode = 'pass';
        ur.resume();
        ur.on('end', () => req.socket.destroy()); // the storage kept the bytes; adops never hears so
        return;
      }
      res.writeHead(ur.statusCode ?? 502, ur.headers);
      ur.pipe(res);
    });
    up.on('error', () => res.destroy());
    let holding = false;
    req.on('data', (chunk: Buffer) => {
      if (typeof mode === 'object' && 'holdAfter' in mode && !holding && state.forwarded + chunk.length > mode.holdAfter) {
        holding = true;
        req.pause();
        void mode.held().then(() => {
          state.forwarded += chunk.length;
          up.write(chunk);
          req.resume();
        });
        return;
      }
      if (typeof mode === 'object' && 'stallAfter' in mode && state.forwarded + chunk.length > mode.stallAfter) {
        req.pause(); // stop reading: adops's PUT stalls, the test kills it
        return;
      }
      state.forwarded += chunk.length;
      if (!up.write(chunk)) {
        req.pause();
        up.once('drain', () => req.resume());
      }
    });
    req.on('end', () => up.end());
    req.on('close', () => {
      if (!req.complete) up.destroy();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return state;
}

/** A test sandbox whose upload URLs point at a new proxy in front of its storage endpoint; close() stops both. */
export async function startProxiedSandbox(opts: TestSandboxOptions): Promise<{ sb: TestSandbox; proxy: UploadProxy; close(): Promise<void> }> {
  const sb = await startTestSandbox(opts);
  const proxy = await startUploadProxy(sb.url);
  sb.services.publicUrl = () => proxy.url;
  return {
    sb,
    proxy,
    close: async () => {
      await proxy.close();
      await sb.close();
    },
  };
}

/**
 * Run `adops assets upload <file>` with `env`, let the proxy stall it after 1 MiB,
 * and kill -9 it once some bytes went through; the proxy passes again afterwards.
 * Returns the bytes forwarded before the kill (above 0, or the caller's check fails).
 */
export async function killMidPut(proxy: UploadProxy, file: string, env: Record<string, string>): Promise<number> {
  proxy.mode = { stallAfter: 1024 * 1024 };
  proxy.forwarded = 0; // the count of an earlier PUT
  const child = spawn(process.execPath, [BIN, 'assets', 'upload', file], { cwd: ROOT, env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((r) => child.on('close', r));
  for (let i = 0; i < 200 && proxy.forwarded < 512 * 1024; i++) await new Promise((r) => setTimeout(r, 50));
  const forwarded = proxy.forwarded;
  child.kill('SIGKILL');
  await exited;
  proxy.mode = 'pass';
  return forwarded;
}
