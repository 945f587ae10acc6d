// Why a file failed, in terms of the file (its size next to the limit, what
// its bytes are next to what is accepted), and what stays reserved after an
// interruption with how it gets cleaned up. Text only.
import { ApiError, codeOf, NetworkError } from '../client/errors.js';
import { humanBytes } from '../contract/media.js';
import { LocalStateError } from '../state/errors.js';
import { UploadError, type FileOutcome } from './upload.js';
import type { UploadTarget } from './upload-targets.js';

export function explainFailure(o: FileOutcome): string {
  const err = o.error;
  const size = `${humanBytes(o.file.size)}${o.file.size >= 1024 ? ` (${o.file.size} bytes)` : ''}`;
  if (err instanceof UploadError) return err.message;
  if (err instanceof ApiError) {
    const said = `the service said: ${err.message}`;
    const extra = err.extra;
    switch (err.code) {
      case 'too_large': {
        const limit = typeof extra.limitBytes === 'number' ? extra.limitBytes : undefined;
        const stored =
          typeof extra.sizeBytes === 'number' && extra.sizeBytes !== o.file.size
            ? ` (${humanBytes(extra.sizeBytes)} had arrived when the storage stopped)`
            : '';
        return `too large: the file is ${size}${limit !== undefined ? `, over the limit of ${humanBytes(limit)} (${limit} bytes)` : ''}${stored}; nothing was kept (${said})`;
      }
      case 'unsupported_type':
        return Array.isArray(extra.allowed)
          ? `type not accepted; accepted: ${extra.allowed.join(', ')} (${said})`
          : `the stored bytes are not the type reserved; nothing was kept (${said})`;
      case 'type_mismatch':
        return `the service read the stored bytes as another type than the one sent; nothing was kept (${said})`;
      case 'unreadable':
        return `the service could not read the file as an accepted type (damaged or cut short?); nothing was kept (${said})`;
      default:
        return `${err.code} (${err.status}): ${err.message}`;
    }
  }
  if (err instanceof NetworkError) return `connection failed: ${err.message}; run the same command again to resume`;
  // Our own store refused a write (full or read-only disk): the user's file is not to blame.
  if (err instanceof LocalStateError) return `${err.message}; ${err.hint}`;
  const code = codeOf(err);
  if (code !== undefined && /^E[A-Z]+$/.test(code)) return `cannot read the file: ${err instanceof Error ? err.message : String(err)}`;
  return err instanceof Error ? err.message : String(err);
}

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19) + ' UTC';

/** What stays on the service for this file and how it will be cleaned up, or undefined. */
export function pendingAdvice(o: FileOutcome, target: UploadTarget, command: string): string | undefined {
  const p = o.pending;
  if (!p) return undefined;
  const valid = p.uploadExpiresAt !== undefined && Number.isFinite(p.uploadExpiresAt) ? ` (its upload URL can start until ${clock(p.uploadExpiresAt)})` : '';
  const landed = p.state === 'sent' || p.state === 'uploaded';
  return (
    `${target.noun} ${p.id} stays ${landed ? 'uploaded, not yet finalized' : 'reserved'}${valid}. ` +
    `Run \`${command}\` again to finish it without sending again what landed; ` +
    `that run deletes it instead if the URL has expired (if the file changes meanwhile, it stays: drop it yourself). To drop it now: \`${target.deleteCommand(p.id)}\`.`
  );
}
