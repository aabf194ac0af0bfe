import { describe, expect, it } from 'vitest';
import type { Principal } from '../domain/index.ts';
import type { ThreadRecord } from '../store/store.ts';
import { assertMayRunOn, parseQueuedRequest, queuedQuestion, queuedRequestOf } from './double-texting.ts';
import type { RunAction, RunRequest } from './run-request.ts';

const alice: Principal = { id: 'alice', groups: ['legal'], roles: ['member'] };
const bob: Principal = { id: 'bob', groups: ['engineering'], roles: ['member'] };
const root: Principal = { id: 'root', groups: [], roles: ['admin'] };
const thread: ThreadRecord = {
  threadId: 't1',
  agent: 'rag',
  owner: 'alice',
  metadata: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const ask: RunAction = { kind: 'ask', question: 'What is the fee?', history: [{ role: 'user', content: 'hi' }] };
const decide: RunAction = { kind: 'resume', decision: { decision: 'approve' } };
const fork: RunAction = { kind: 'fork', checkpointId: 'cp-1' };

describe('double-texting rules', () => {
  it('lets only the owner queue or stop for a question or time travel, and an admin too for a decision', () => {
    for (const action of [ask, fork, decide])
      expect(() => assertMayRunOn(thread, { principal: alice, action })).not.toThrow();
    for (const action of [ask, fork, decide])
      expect(() => assertMayRunOn(thread, { principal: bob, action })).toThrow(
        expect.objectContaining({ code: 'not_found' }),
      );
    for (const action of [ask, fork])
      expect(() => assertMayRunOn(thread, { principal: root, action })).toThrow(
        expect.objectContaining({ code: 'not_found' }),
      );
    expect(() => assertMayRunOn(thread, { principal: root, action: decide })).not.toThrow();
  });

  it('keeps a queued request through JSON as it was asked, the assistant by id and version', () => {
    const request: RunRequest = {
      agent: 'rag',
      threadId: 't1',
      principal: alice,
      action: ask,
      surface: 'langgraph',
      streamModes: ['values', 'events'],
      assistant: { assistantId: 'my-assistant', version: 3 } as NonNullable<RunRequest['assistant']>,
      multitaskStrategy: 'enqueue',
    };
    const stored = JSON.parse(JSON.stringify(queuedRequestOf(request))) as unknown;
    expect(parseQueuedRequest(stored)).toEqual({
      principal: alice,
      action: ask,
      surface: 'langgraph',
      assistant: 'my-assistant',
      assistantVersion: 3,
      streamModes: ['values', 'events'],
    });
    for (const action of [decide, fork])
      expect(parseQueuedRequest(JSON.parse(JSON.stringify(queuedRequestOf({ ...request, action })))).action).toEqual(
        action,
      );
  });

  it('refuses a stored request it cannot read whole, rather than starting a guessed one', () => {
    const good = queuedRequestOf({ agent: 'rag', threadId: 't1', principal: alice, action: ask });
    const broken: unknown[] = [
      null,
      {},
      { ...good, principal: { id: 'alice', groups: ['legal'], roles: ['root'] } },
      { ...good, principal: { id: '', groups: [], roles: [] } },
      { ...good, action: { kind: 'delete', question: 'x' } },
      { ...good, action: { kind: 'ask', question: '', history: [] } },
      { ...good, action: { kind: 'resume', decision: { decision: 'maybe' } } },
      { ...good, surface: 'telnet' },
      { ...good, streamModes: Array.from({ length: 17 }, () => 'values') },
    ];
    for (const stored of broken)
      expect(() => parseQueuedRequest(stored)).toThrow(expect.objectContaining({ code: 'invalid_input' }));
  });

  it("records a pending run's question as what it will do", () => {
    expect(queuedQuestion(ask)).toBe('What is the fee?');
    expect(queuedQuestion(decide)).toBe('approve the pending action');
    expect(queuedQuestion(fork)).toBe('replay from checkpoint cp-1');
    expect(queuedQuestion({ ...fork, question: 'Again?' })).toBe('Again?');
  });
});
