// assets_upload: one local file by path, uploaded as `adops assets upload`
// uploads it (reserve → PUT → finalize, journaled, resumed, a file already
// uploaded from this machine shown rather than sent again), optionally
// registered to advertisers. The path names one regular file: a directory or
// a glob pattern, which the command would expand, is refused here.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ToolDef, ToolEnv, ToolOutcome } from '../tool-def.js';
import { operationsOf } from './operations.js';
import { failure, runJson, success } from './run-json.js';
import { ADVERTISER, ArgError, flag, required, str, strings, withArgs } from './tool-args.js';

function regularFile(path: string): string {
  const full = resolve(path);
  let regular: boolean;
  try {
    regular = statSync(full).isFile();
  } catch {
    throw new ArgError(`path ${path}: no such file`);
  }
  if (!regular) throw new ArgError(`path ${path}: not a regular file (one file a call; a directory or pattern is not expanded)`);
  return full;
}

async function upload(args: Record<string, unknown>, env: ToolEnv): Promise<ToolOutcome> {
  const file = regularFile(required(args, 'path'));
  const register = strings(args, 'register', ADVERTISER).flatMap((a) => flag('register', a));
  const r = await runJson(env, ['assets', 'upload', ...register, ...flag('name', str(args, 'name')), '--', file]);
  if (r.code !== 0) return failure(r);
  const rows = Array.isArray(r.value) ? r.value : [];
  return success(rows.length === 1 ? rows[0] : rows, r.notes);
}

export function uploadTools(): ToolDef[] {
  return [
    {
      name: 'assets_upload',
      title: 'Upload a local file as an Asset',
      description:
        'Upload one local image or video file (by path, on the machine running adops) as an Asset: reserve, send the bytes, finalize, wait until ready; register to advertisers if asked. Returns the Asset (id, filename, status, sha256, …). Safe to call again: an interrupted upload resumes, and a file already uploaded (same bytes, Asset still there) is shown, not sent again.',
      inputSchema: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'path of the file (absolute, or relative to the directory adops mcp was started in)' },
          register: { type: 'array', items: { type: 'string', pattern: '^acc_' }, description: 'advertiser ids whose library gets the Asset once ready' },
          name: { type: 'string', description: 'the Asset filename to use instead of the file name' },
        },
        required: ['path'],
        additionalProperties: false,
      },
      annotations: { title: 'Upload an Asset', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      toolset: 'assets',
      access: 'write',
      operationIds: operationsOf(['assets', 'upload']),
      call: (args, env) => withArgs(() => upload(args, env)),
    },
  ];
}
