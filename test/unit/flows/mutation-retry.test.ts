// The safe-retry command printed with exit 10: the named command a person
// would have typed, shell-quoted, with the Idempotency-Key; else generic start.
import { describe, expect, it } from 'vitest';
import { commandFor } from '../../../src/commands/mutations/_retry.js';

const target = { type: 'campaign', id: '7' };

describe('commandFor', () => {
  it('names the action, quotes what the shell would split, keeps the key', () => {
    expect(commandFor({ advertiserId: 'acc_1', action: 'rename', target, name: "Spring's sale" }, 'k1')).toBe(
      `adops mutations rename acc_1 --campaign 7 --name 'Spring'\\''s sale' --idempotency-key k1`,
    );
    expect(commandFor({ advertiserId: 'acc_1', action: 'set_bid', target: { type: 'ad_group', id: '8' }, bidStrategy: 'COST_CAP', bidAmount: 2.5 }, 'k2')).toBe(
      'adops mutations bid acc_1 --ad-group 8 --strategy COST_CAP --amount 2.5 --idempotency-key k2',
    );
    expect(commandFor({ advertiserId: 'acc_1', action: 'delete', target }, 'k3')).toBe('adops mutations delete acc_1 --campaign 7 --yes --idempotency-key k3');
  });

  it('falls back to generic start with -F for a body it has no named command for', () => {
    expect(commandFor({ advertiserId: 'acc_1', action: 'future', target }, 'k')).toBe(
      `adops mutations start -F 'advertiserId="acc_1"' -F 'action="future"' -F 'target={"type":"campaign","id":"7"}' --idempotency-key k`,
    );
  });
});
