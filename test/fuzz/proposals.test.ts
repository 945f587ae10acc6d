// The fuzzer's judgement of a proposed change file (issue #36, judge.ts): a
// change of an entity whose answer broke the contract where the proposal reads
// it is a failure, in CSV and in NDJSON; a change of another entity is not.
import { describe, expect, it } from 'vitest';
import { judge, type RunFacts } from './judge.js';

const FILE = '/run/budgets.csv';
const HEADER = 'advertiserId,action,targetType,targetId,name,amount,budgetType,bidStrategy,bidAmount\n';

/** A --suggest run that read a live campaigns list whose row of campaign 123 was repeated. */
function run(file: string, text: string): RunFacts {
  return {
    command: 'plans pacing',
    argv: ['plans', 'pacing', 'spring-sale', '--suggest', file],
    code: 0,
    stdout: '',
    stderr: '',
    format: undefined,
    served: [
      { op: 'listLiveCampaigns', method: 'GET', path: '/observe/acc_1/campaigns', status: 200, mutation: { kind: 'duplicateRow', at: '', subject: '123' } },
    ],
    requests: [],
    overBudget: false,
    documented: [11],
    files: new Map([[file, text]]),
  };
}
const proposalFailures = (r: RunFacts) => judge(r).filter((f) => f.startsWith('proposed a change'));

describe('the judge of a proposed change file', () => {
  it('a change of the entity whose answer broke: a failure (CSV and NDJSON)', () => {
    expect(proposalFailures(run(FILE, `${HEADER}acc_1,set_budget,campaign,123,,50,,,\n`))).toEqual([
      'proposed a change of 123, whose answer broke the contract where the proposal reads it',
    ]);
    const body = { advertiserId: 'acc_1', target: { type: 'campaign', id: '123' }, action: 'set_budget', budget: { amount: 50 } };
    expect(proposalFailures(run('/run/b.ndjson', JSON.stringify(body) + '\n'))).toHaveLength(1);
  });

  it('a change of another entity, or no change: none', () => {
    expect(proposalFailures(run(FILE, `${HEADER}acc_1,set_budget,campaign,456,,50,,,\n`))).toEqual([]);
    expect(proposalFailures(run(FILE, HEADER))).toEqual([]);
    expect(proposalFailures(run('/run/b.ndjson', ''))).toEqual([]);
  });
});
