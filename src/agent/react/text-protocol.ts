import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { validate } from '../../models/chat/structured-output.ts';
import { checkCall, FINAL_ANSWER, toolDefinitions, type CheckedCall } from './react-tools.ts';
import type { ReactTurn } from './react-state.ts';

/** What one reply in the text protocol says: a thought, and one action or the final answer, or what is wrong with it. */
export interface TextReply {
  thought: string;
  /** The reply up to where the model should have stopped (anything after an invented `Observation:` is dropped). */
  raw: string;
  action?: { name: string; args: Record<string, unknown>; call: CheckedCall };
  /** The reply follows no part of the protocol. */
  problem?: string;
}

const LABEL = /^\s*(thought|action input|action|final answer|observation)\s*:\s*/i;

/** Splits a reply into its labelled sections; markdown emphasis around labels (`**Action:**`) is tolerated. */
function sections(text: string): { label: string; body: string }[] {
  const out: { label: string; body: string }[] = [];
  for (const line of text.replace(/\*\*|__/g, '').split(/\r?\n/)) {
    const match = LABEL.exec(line);
    if (match?.[1]) out.push({ label: match[1].toLowerCase(), body: line.slice(match[0].length) });
    else if (out.length > 0) (out.at(-1) as { body: string }).body += `\n${line}`;
    else out.push({ label: 'preamble', body: line });
  }
  return out.map((section) => ({ ...section, body: section.body.trim() }));
}

const asArgs = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };

/** The tool name as models write it: `knowledge_base`, "knowledge_base", `knowledge_base[...]`, knowledge_base(…). */
const toolNameOf = (text: string): string =>
  /[A-Za-z_][\w-]*/.exec(text.replace(/[`"']/g, ''))?.[0]?.toLowerCase() ?? '';

/** An Action Input: a JSON object, or for a tool with one text argument, the bare text (models often write that). */
function inputOf(tool: string, text: string): unknown {
  const parsed = validate(z.record(z.string(), z.unknown()), text);
  if (parsed.success) return parsed.data;
  const bare = text.replace(/^["'`]+|["'`]+$/g, '').trim();
  if (tool === 'knowledge_base') return { query: bare };
  if (tool === 'save_memory') return { text: bare };
  if (tool === 'table_query') return { sql: bare.replace(/^sql\s+/i, '') };
  return undefined;
}

/**
 * Parses a reply in the text protocol, robustly: labels in any case, text after an invented `Observation:` ignored,
 * an action taking precedence over a final answer written after it. Anything unusable comes back as a `problem`, never
 * as an exception.
 */
export function parseTextReply(reply: string): TextReply {
  const all = sections(reply);
  const cut = all.findIndex((section) => section.label === 'observation');
  const used = cut >= 0 ? all.slice(0, cut) : all;
  const raw = used
    .map((s) => (s.label === 'preamble' ? s.body : `${s.label.replace(/\b\w/g, (c) => c.toUpperCase())}: ${s.body}`))
    .join('\n')
    .trim();
  const thought = used
    .filter((s) => s.label === 'thought' || s.label === 'preamble')
    .map((s) => s.body)
    .filter(Boolean)
    .join(' ');
  const actionAt = used.findIndex((s) => s.label === 'action');
  const finalAt = used.findIndex((s) => s.label === 'final answer');
  if (actionAt >= 0 && (finalAt < 0 || actionAt < finalAt)) {
    const name = toolNameOf(used[actionAt]?.body ?? '');
    const inputSection = used.slice(actionAt + 1).find((s) => s.label === 'action input');
    if (!name) return { thought, raw, problem: 'The Action line names no tool.' };
    if (!inputSection || !inputSection.body)
      return {
        thought,
        raw,
        problem: `The Action "${name}" has no Action Input line with its arguments as a JSON object.`,
      };
    const input = inputOf(name, inputSection.body);
    if (input === undefined) return { thought, raw, problem: `The Action Input of ${name} is not a JSON object.` };
    return { thought, raw, action: { name, args: asArgs(input), call: checkCall(name, input) } };
  }
  if (finalAt >= 0) {
    const parsed = validate(z.unknown(), used[finalAt]?.body ?? '');
    if (!parsed.success)
      return {
        thought,
        raw,
        problem:
          'The Final Answer must be a JSON object with answer, answerable, confidence, citations and missing_information.',
      };
    return {
      thought,
      raw,
      action: { name: FINAL_ANSWER, args: asArgs(parsed.data), call: checkCall(FINAL_ANSWER, parsed.data) },
    };
  }
  return { thought, raw, problem: 'The reply has neither an Action with an Action Input nor a Final Answer.' };
}

/** The protocol as the model is told it, with each tool's JSON schema. */
export function textProtocolInstructions(): string {
  const tools = toolDefinitions()
    .map(
      (tool) =>
        `- ${tool.function.name}: ${tool.function.description} Arguments: ${JSON.stringify(tool.function.parameters)}`,
    )
    .join('\n');
  return [
    'Tools:',
    tools,
    '',
    'Reply in exactly this format, one action per reply:',
    'Thought: what you know so far and what you need next',
    `Action: the tool's name (knowledge_base, table_query or save_memory)`,
    'Action Input: the arguments as one JSON object',
    'Then stop. The tool result comes back to you as "Observation: …".',
    'When you can answer (or know the evidence does not state the answer):',
    'Thought: why you can answer',
    `Final Answer: the arguments of ${FINAL_ANSWER} as one JSON object`,
  ].join('\n');
}

/** One turn as the text protocol shows it to the model: its reply, then the observations as the next user message. */
export function textTurnMessages(turn: ReactTurn): BaseMessage[] {
  const messages: BaseMessage[] = [new AIMessage(turn.raw || `Thought: ${turn.thought}`)];
  if (turn.observations.length)
    messages.push(new HumanMessage(turn.observations.map((o) => `Observation: ${o.content}`).join('\n\n')));
  return messages;
}
