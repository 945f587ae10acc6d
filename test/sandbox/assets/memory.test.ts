// A big upload must hold memory flat: the bytes stream to disk, never whole into
// memory. 200 MB are generated on the fly (one reused 1 MiB buffer) and sent
// through the storage URL; the process's RSS may not grow by more than a small
// bound. (Client and server share this process, so the bound covers both.)
import { expect, it } from 'vitest';
import { useTestSandbox } from '../../helpers/sandbox.js';
import { mp4 } from '../../unit/uploads/media-samples.js';
import { putStream, reserve } from './upload-helpers.js';

// ADOPS_UPLOAD_TEST_MIB=2048 runs the full 2 GiB case by hand (not in the suite: it writes 2 GiB to disk).
const TOTAL = Number(process.env.ADOPS_UPLOAD_TEST_MIB ?? 200) * 1024 * 1024;
// Buffering the body whole would grow RSS by at least TOTAL; GC lag on a busy machine accounts for tens of MiB.
const BOUND = 100 * 1024 * 1024;

const sb = useTestSandbox();

it(`streams ${TOTAL / 1024 / 1024} MiB to disk with flat memory, and finalizes it`, { timeout: 60_000 }, async () => {
  const reserved = await reserve(sb, { filename: 'long.mp4' });
  const header = mp4();
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  // Sampled as each chunk is sent (the server reads while we send), not on a timer.
  const res = await putStream(reserved.uploadUrl, {
    contentType: 'video/mp4',
    total: TOTAL,
    fill: (offset, chunk) => {
      peak = Math.max(peak, process.memoryUsage().rss);
      // The first chunk starts with a real MP4 header; the rest is filler.
      if (offset === 0) header.copy(chunk, 0);
      else if (offset === chunk.length) chunk.fill(0x61, 0, header.length);
    },
  });
  peak = Math.max(peak, process.memoryUsage().rss);
  expect(res.status).toBe(200);
  expect(JSON.parse(res.body)).toMatchObject({ sizeBytes: TOTAL });
  console.log(`memory: RSS grew by ${((peak - baseline) / 1024 / 1024).toFixed(1)} MiB for ${TOTAL / 1024 / 1024} MiB uploaded`);
  expect(peak - baseline, `RSS grew by ${((peak - baseline) / 1024 / 1024).toFixed(1)} MiB`).toBeLessThan(BOUND);
  const finalized = await sb.req('POST', `/assets/${reserved.id}/finalize`, { key: sb.keys.full });
  expect(finalized.body).toMatchObject({ state: 'ready', mimeType: 'video/mp4', kind: 'video', sizeBytes: TOTAL });
});
