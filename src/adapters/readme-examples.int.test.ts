import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FEE_QUESTION,
  RESTRICTED_DOC,
  startAdapterTestServer,
  type AdapterTestServer,
} from '../testing/adapter-test-targets.ts';
import { RecordingChatModel } from '../testing/recording-chat-model.ts';

/**
 * The "Use from LangChain / AI SDK" examples of docs/mcp-and-adapters.md are the files in examples/: each must appear
 * on that page verbatim, and each runs here against a store and a server this test builds (the scripts as child processes,
 * importing `evident/langchain` through the package's exports; the modules with a fake model).
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PAGE = 'docs/mcp-and-adapters.md';
const run = promisify(execFile);

let server: AdapterTestServer;
let page: string;
beforeAll(async () => {
  server = await startAdapterTestServer();
  page = await readFile(join(root, PAGE), 'utf8');
});
afterAll(async () => server?.close());

const example = (name: string) => readFile(join(root, 'examples', name), 'utf8');

/** Runs an example script in a child process with only the environment it documents. */
async function runExample(name: string, env: Record<string, string>): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join('examples', name)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    timeout: 60_000,
  });
  return stdout;
}

const onPage = (text: string, fence: string) => page.includes(`\`\`\`${fence}\n${text}\`\`\``);

describe('docs/mcp-and-adapters.md: Use from LangChain / AI SDK', () => {
  it('the page holds each example verbatim', async () => {
    for (const name of ['langchain-retriever.ts', 'langchain-ask.ts', 'langchain-agent.ts', 'ai-sdk-agent.ts']) {
      expect(onPage(await example(name), 'ts'), `${PAGE} shows examples/${name}`).toBe(true);
    }
  });

  it('langchain-retriever.ts runs in process as alice and prints what the page shows', async () => {
    const stdout = await runExample('langchain-retriever.ts', { EVIDENT_DB: server.api.evident.config.db });
    expect(stdout.split('\n')[0]).toMatch(
      new RegExp(`^${RESTRICTED_DOC.replace(/\./g, '\\.')}#\\d+ \\| .* \\| \\{"bm25":\\{"rank":1\\}`),
    );
    expect(stdout).toContain(`[1] ${RESTRICTED_DOC}`);
    expect(onPage(stdout, 'text'), `${PAGE} shows this output:\n${stdout}`).toBe(true);
  });

  it("langchain-ask.ts runs over HTTP with alice's key and prints what the page shows", async () => {
    const stdout = await runExample('langchain-ask.ts', {
      EVIDENT_URL: server.api.url,
      EVIDENT_KEY: server.api.keys.alice,
    });
    expect(stdout).toContain('answered | $48,000.');
    expect(stdout).toContain(`${RESTRICTED_DOC}: "`);
    expect(onPage(stdout, 'text'), `${PAGE} shows this output:\n${stdout}`).toBe(true);
  });

  it("langchain-agent.ts builds an agent whose model calls Evident as the key's user", async () => {
    process.env.EVIDENT_URL = server.api.url;
    process.env.EVIDENT_KEY = server.api.keys.bob;
    try {
      const { evidentAgent } = await import('../../examples/langchain-agent.ts');
      const model = new RecordingChatModel([
        new AIMessage({
          content: '',
          tool_calls: [{ id: 'call-1', name: 'evident_ask', args: { question: FEE_QUESTION }, type: 'tool_call' }],
        }),
        'The knowledge base has no answer for you.',
      ]);
      const { messages } = await evidentAgent(model).invoke({ messages: [{ role: 'user', content: FEE_QUESTION }] });
      const toolMessage = messages.find((message) => ToolMessage.isInstance(message)) as ToolMessage;
      // bob's key: the run is bob's, and bob may not read the contract.
      expect(toolMessage.artifact).toMatchObject({ status: 'refused', answerable: false });
      expect(String(messages.at(-1)?.content)).toBe('The knowledge base has no answer for you.');
    } finally {
      delete process.env.EVIDENT_URL;
      delete process.env.EVIDENT_KEY;
    }
  });

  it("ai-sdk-agent.ts answers with AI SDK's mock model calling evident_ask as the key's user", async () => {
    process.env.EVIDENT_URL = server.api.url;
    process.env.EVIDENT_KEY = server.api.keys.alice;
    try {
      const { answerWithEvident } = await import('../../examples/ai-sdk-agent.ts');
      const usage = {
        inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 1, text: 1, reasoning: 0 },
      };
      const model = new MockLanguageModelV3({
        doGenerate: [
          {
            content: [
              {
                type: 'tool-call',
                toolCallId: 'c1',
                toolName: 'evident_ask',
                input: JSON.stringify({ question: FEE_QUESTION }),
              },
            ],
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
          },
          {
            content: [{ type: 'text', text: 'It is $48,000 [1].' }],
            finishReason: { unified: 'stop', raw: undefined },
            usage,
            warnings: [],
          },
        ],
      });
      const { text, evidence } = await answerWithEvident(model, FEE_QUESTION);
      expect(text).toBe('It is $48,000 [1].');
      expect(evidence[0]).toMatchObject({
        status: 'answered',
        citations: [expect.objectContaining({ doc_id: RESTRICTED_DOC })],
      });
    } finally {
      delete process.env.EVIDENT_URL;
      delete process.env.EVIDENT_KEY;
    }
  });
});
