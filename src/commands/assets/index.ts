// Definitions of the assets group (data only).
import { command } from '../../cli/command-input.js';
import type { CommandSpec, GroupSpec } from '../../cli/registry.js';
import { EXIT } from '../../cli/exit-codes.js';

export const assetGroups: GroupSpec[] = [];

export const assetCommands: CommandSpec[] = [
  command({
    path: ['assets', 'upload'],
    description: 'Upload image and video files as Assets: reserve, send the bytes, finalize (and register with --register); an interrupted run resumes',
    args: [{ name: 'files', description: 'files, directories or quoted glob patterns', required: true, variadic: true }],
    options: [
      { flags: '--register <advertiser>', description: "register each Asset to this advertiser's library once ready (repeatable)", type: 'repeat' },
      { flags: '--concurrency <n>', description: 'files uploaded at once (default 4)', type: 'int' },
      { flags: '--name <filename>', description: 'the Asset filename to use instead of the file name (one file only)' },
      { flags: '--timeout <seconds>', description: 'how long to wait for an Asset to become ready after finalize (default 300)', type: 'number' },
      {
        flags: '--idle-timeout <seconds>',
        description: 'fail a byte transfer when no byte moves for this long (default 60); it is retried twice',
        type: 'number',
      },
    ],
    flowOperations: ['reserveAssetUpload', 'finalizeAsset', 'getAsset', 'registerAsset', 'deleteAsset'],
    exits: [EXIT.waitTimeout],
    notes:
      'The Content-Type sent is what the bytes are (read from their signature), not what the name says; a file of no accepted type is refused before anything is reserved. ' +
      'Bytes go to the upload URL without the API key. Each step is journaled under the config dir: running the same command again after Ctrl-C, a cut connection or a crash finishes the job without sending again what landed (proven by SHA-256), and a file already uploaded from this machine (Asset still there, same SHA-256) is shown, not sent again. ' +
      'Progress: bars on a terminal, plain lines every 10% or 10 s elsewhere (stderr). Exit 0 only when every file is ready; otherwise the first failure decides the exit code.',
    examples: [
      'adops assets upload hero.jpg --register acc_123',
      'adops assets upload ./creatives --concurrency 8 --output csv',
      "adops assets upload 'shoot/**/*.mp4'",
      'adops assets upload spring.png --name "Spring hero.png"',
    ],
    load: () => import('./upload.js'),
  }),
  command({
    path: ['assets', 'sync'],
    description: 'Upload the files of a directory that are not already Assets (same name and bytes); a re-run uploads nothing new',
    args: [{ name: 'dir', description: 'directory to sync (walked; dot-named entries skipped and listed)', required: true }],
    options: [
      { flags: '--register <advertiser>', description: 'register every Asset (new or already there) to this advertiser (repeatable)', type: 'repeat' },
      { flags: '--concurrency <n>', description: 'files uploaded at once (default 4)', type: 'int' },
      { flags: '--timeout <seconds>', description: 'how long to wait for an Asset to become ready after finalize (default 300)', type: 'number' },
      {
        flags: '--idle-timeout <seconds>',
        description: 'fail a byte transfer when no byte moves for this long (default 60); it is retried twice',
        type: 'number',
      },
      { flags: '--dry-run', description: 'say what would be uploaded; send nothing' },
      {
        flags: '--match-name-size',
        description:
          'count a ready Asset of the same name and size as already there even without proof of the same bytes (no checksum shown, no journal record)',
      },
    ],
    flowOperations: ['listAssets', 'reserveAssetUpload', 'finalizeAsset', 'getAsset', 'registerAsset', 'deleteAsset'],
    exits: [EXIT.waitTimeout],
    notes:
      'One row per file: uploaded, already there (with how it was matched: sha256 from the upload journal, or a checksum the service shows) or failed; then one row per entry skipped (dot-named, a symlink leaving the directory, a FIFO or other non-regular file), the reason in `error`. Symlinks to files inside the directory are followed. ' +
      'Without proof of the same bytes a ready Asset of the same filename and size is not counted as there (a creative changed at the same size is uploaded); --match-name-size counts it (matched by name+size).',
    examples: ['adops assets sync ./creatives', 'adops assets sync ./creatives --register acc_123 --output ndjson', 'adops assets sync ./creatives --dry-run'],
    load: () => import('./sync.js'),
  }),
];
