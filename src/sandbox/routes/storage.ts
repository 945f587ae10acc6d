// The sandbox's own upload storage: where the uploadUrl of an Asset or a Brand
// Document points. Not an operation of the service (it stands in for the object
// store a real service would hand out), so it is not in any OpenAPI document and
// takes no API key: the signed token in the path is the whole credential, and an
// Authorization header is refused so a client never learns to send its key to a
// storage host.
//
//   PUT /_storage/uploads/{token}   body: the file's bytes, Content-Type: its media type
//   200 { received: true, sizeBytes, contentType }
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Hono } from 'hono';
import type { AppEnv } from '../http/context.js';
import { fail } from '../http/errors.js';
import { invalidRequest } from '../models/errors.js';
import { STORAGE_PATH_PREFIX, getUpload, receiveUpload, storageQuota } from '../models/uploads/index.js';
import type { ByteSource } from '../models/uploads/file-store.js';
import { verifyUploadToken } from '../models/uploads/tokens.js';

async function* empty(): AsyncIterable<Uint8Array> {}

/** The web request's body (app.request(), tests): a stream of bytes, or nothing. */
const webBody = (body: AsyncIterable<Uint8Array> | null): AsyncIterable<Uint8Array> => body ?? empty();

export function registerStorageRoutes(app: Hono<AppEnv>): void {
  app.put(`${STORAGE_PATH_PREFIX}:token`, async (c) => {
    const services = c.get('sandbox');
    if (c.req.header('authorization') !== undefined) {
      throw invalidRequest(
        [{ in: 'headers', path: '/authorization', message: 'must not be sent: the upload URL carries its own credential' }],
        'The upload URL needs no API key; send the bytes without an Authorization header.',
      );
    }
    const check = verifyUploadToken(services.secret, c.req.param('token'), services.clock.now());
    if (!check.ok) {
      throw check.reason === 'expired'
        ? fail('upload_url_expired', 'This upload URL has expired; reserve the upload again for a fresh one.', {}, 403)
        : fail('invalid_upload_token', 'This upload URL is not valid.', {}, 403);
    }
    const { uploadId } = check.claims;
    const upload = getUpload(services.db, uploadId);
    if (!upload) throw fail('not_found', 'The upload this URL was made for no longer exists.');
    if (upload.state !== 'awaiting_bytes') {
      throw fail('upload_already_received', 'This upload URL was already used for a complete upload; it is good for one upload only.', {}, 409);
    }
    const contentType = c.req.header('content-type') ?? null;

    const declared = Number(c.req.header('content-length') ?? NaN);
    // Read the Node request itself when served by node-server (real backpressure), else the web
    // stream. Stopping early (too large) must not destroy the request: the 413 still has to go out.
    // (Touching c.req.raw.body under node-server would start reading the Node request: only without it.)
    const incoming = c.env?.incoming;
    const source: ByteSource = incoming ? readBody(incoming, c.env?.outgoing) : webBody(c.req.raw.body);
    const result = await receiveUpload(
      services.db,
      services.files,
      uploadId,
      source,
      contentType,
      () => services.clock.now(),
      Number.isFinite(declared) ? declared : undefined,
      { quotaBytes: storageQuota(services.settings), inFlight: services.uploadsInFlight },
    );
    if (result.ok) return c.json({ received: true, sizeBytes: result.sizeBytes, contentType }, 200);
    switch (result.reason) {
      case 'too_large':
        // The rest of the body is not stored; the connection stays open so the client reads this
        // answer (closing on a client still sending resets it, and the answer is lost: #13).
        // Node then drains what is still coming, bounded in time and bytes.
        throw fail(
          'too_large',
          result.refusedBy === 'org_quota'
            ? `The upload would pass your organization's storage quota (${result.limitBytes} bytes left of it) and was not kept; delete Assets or Documents you no longer need, or upload a smaller file.`
            : `The upload passed the ${result.limitBytes}-byte limit of its reservation and was not kept; finalize to release the reservation, then upload a smaller file.`,
        );
      case 'already_received':
        throw fail('upload_already_received', 'Another upload to this URL completed first; it is good for one upload only.', {}, 409);
      case 'not_found':
        throw fail('not_found', 'The upload this URL was made for no longer exists.');
      case 'aborted':
        // The client went away mid-body: nothing was kept and the URL stays usable until it expires.
        throw fail('upload_incomplete', 'The upload was cut off before its end; nothing was kept. Send it again.');
    }
  });
}

/**
 * The request body as bytes. A client that sent `Expect: 100-continue` waits
 * for our go-ahead (server.ts holds it back for this endpoint): it is given
 * only once the upload is known to fit, so an early 413 reaches a client that
 * has not sent a byte yet.
 */
async function* readBody(incoming: IncomingMessage, outgoing: ServerResponse | undefined): AsyncIterable<Uint8Array> {
  if (outgoing && /100-continue/i.test(incoming.headers.expect ?? '') && !outgoing.headersSent) outgoing.writeContinue();
  yield* incoming.iterator({ destroyOnReturn: false });
}
