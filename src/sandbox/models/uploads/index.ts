// The upload toolkit shared by Assets and Brand Documents:
//   reserveUpload → (client PUTs to uploadUrl; routes/storage.ts → receiveUpload) → inspectUpload → discardUpload
// plus the file store of a sandbox and the media sniffer.
import { createFileStore } from './file-store.js';
import type { FileStore } from './file-store.js';

export * from './uploads.js';
export { sniffMedia, SNIFF_HEAD_BYTES } from './sniff.js';
export type { SniffResult, SniffedMedia, MediaKind } from './sniff.js';
export { essenceOf, streamingCap } from './limits.js';
export type { MediaLimits } from './limits.js';
export type { FileStore } from './file-store.js';

const stores = new WeakMap<object, FileStore>();

/** The file store of one sandbox (one per services object; stale temp files swept once). */
export function uploadFiles(services: { filesDir: string }): FileStore {
  let store = stores.get(services);
  if (!store) {
    store = createFileStore(services.filesDir);
    stores.set(services, store);
    void store.sweepTemp();
  }
  return store;
}
