import { describe, expect, it } from 'vitest';
import { parseTextReply } from './text-protocol.ts';

describe('text protocol parser', () => {
  it('reads a thought, an action and its JSON input', () => {
    const reply = parseTextReply(
      'Thought: I need the fee.\nAction: knowledge_base\nAction Input: {"query": "termination fee CT-2024-0193"}',
    );
    expect(reply.thought).toBe('I need the fee.');
    expect(reply.problem).toBeUndefined();
    expect(reply.action).toMatchObject({
      name: 'knowledge_base',
      call: { ok: true, kind: 'tool', tool: 'knowledge_base', input: { query: 'termination fee CT-2024-0193' } },
    });
  });

  it('tolerates markdown, label case, a backticked tool, a fenced input and a bare string input', () => {
    const fenced = parseTextReply(
      '**Thought:** look it up\n**ACTION:** `knowledge_base`\naction input:\n```json\n{"query": "liability cap"}\n```',
    );
    expect(fenced.action?.call).toMatchObject({ ok: true, input: { query: 'liability cap' } });
    const bare = parseTextReply(
      'Thought: search\nAction: knowledge_base\nAction Input: "notice period of CT-2023-0077"',
    );
    expect(bare.action?.call).toMatchObject({ ok: true, input: { query: 'notice period of CT-2023-0077' } });
  });

  it('ignores an observation the model invented, and what follows it', () => {
    const reply = parseTextReply(
      'Thought: search\nAction: knowledge_base\nAction Input: {"query": "fee"}\nObservation: the fee is $1\nThought: done\nFinal Answer: {"answer": "$1", "answerable": true, "confidence": 1, "citations": [], "missing_information": []}',
    );
    expect(reply.action?.name).toBe('knowledge_base');
    expect(reply.raw).not.toContain('Observation');
    expect(reply.raw).not.toContain('$1');
  });

  it('reads a final answer as the answer contract', () => {
    const reply = parseTextReply(
      'Thought: the evidence states it\nFinal Answer: {"answer": "$48,000 [1]", "answerable": true, "confidence": 0.9, "citations": [{"chunk_id": "c#0", "quote": "a fee of $48,000"}]}',
    );
    expect(reply.action?.call).toMatchObject({
      ok: true,
      kind: 'final',
      answer: { answer: '$48,000 [1]', missing_information: [] },
    });
  });

  it('reports what is wrong instead of throwing', () => {
    expect(parseTextReply('I think the answer is 42.').problem).toMatch(/neither an Action/);
    expect(parseTextReply('Thought: x\nAction: knowledge_base').problem).toMatch(/no Action Input/);
    expect(parseTextReply('Thought: x\nAction: web_search\nAction Input: {"q": "x"}').action?.call).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/no tool named "web_search"/),
    });
    expect(parseTextReply('Thought: x\nAction: knowledge_base\nAction Input: {"q": "x"}').action?.call).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/input of knowledge_base is invalid/),
    });
    expect(parseTextReply('Final Answer: it is $48,000').problem).toMatch(/Final Answer must be a JSON object/);
    expect(parseTextReply('Final Answer: {"answer": "x"}').action?.call).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/final_answer is invalid/),
    });
  });
});
