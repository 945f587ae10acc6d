// The upload toolkit shared by Assets and Brand Documents:
//   reserveUpload → (client PUTs to uploadUrl; routes/storage.ts → receiveUpload) → inspectUpload → discardUpload
// plus the media sniffer. A sandbox's file store is `services.files`.
export * from './uploads.js';
export { sniffMedia, SNIFF_HEAD_BYTES } from '../../../contract/media-sniff.js';
export type { SniffResult, SniffedMedia, MediaKind } from '../../../contract/media-sniff.js';
export { essenceOf, streamingCap } from './limits.js';
export type { MediaLimits } from './limits.js';
export type { FileStore } from './file-store.js';
export { storageQuota } from './quota.js';
