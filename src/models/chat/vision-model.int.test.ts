import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/load-config.ts';
import { configSchema } from '../../config/schema.ts';
import { ConfigError } from '../../errors/index.ts';
import { modelFigureDescriber } from '../../ingest/figures/model-figure-describer.ts';
import { FakeLlmServer } from '../../testing/fake-llm-server.ts';
import { createVisionModel } from './create-vision-model.ts';

const server = new FakeLlmServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

const PNG = Buffer.from('89504e470d0a1a0a', 'hex');
const figure = { page: 3, label: 'Figure 2', caption: 'Figure 2: Loss by step.', docTitle: 'Paper', png: PNG };

describe('the vision model', () => {
  it('reads EVIDENT_VISION, EVIDENT_VISION_BASE_URL and EVIDENT_VISION_API_KEY, and is unset by default', () => {
    const env = {
      EVIDENT_VISION: 'ollama:llava',
      EVIDENT_VISION_BASE_URL: 'http://127.0.0.1:9/',
      EVIDENT_VISION_API_KEY: 'k',
    };
    expect(loadConfig({ env, cwd: '/nonexistent' })).toMatchObject({
      vision: 'ollama:llava',
      visionBaseUrl: 'http://127.0.0.1:9/',
      visionApiKey: 'k',
    });
    expect(loadConfig({ env: {}, cwd: '/nonexistent' }).vision).toBeUndefined();
  });

  it('is openai or ollama, and OpenAI itself needs a key', async () => {
    await expect(createVisionModel(configSchema.parse({ vision: 'llama-cpp:./m.gguf' }))).rejects.toThrow(ConfigError);
    await expect(createVisionModel(configSchema.parse({ vision: 'openai:gpt-4o-mini' }))).rejects.toThrow(
      /vision model needs an API key/,
    );
    expect(await createVisionModel(configSchema.parse({}))).toBeUndefined();
  });

  it('through Ollama, the page travels as the message image and the caption as its text; its own URL, not the chat model’s', async () => {
    const config = configSchema.parse({
      llm: 'ollama:llama3.1:8b',
      llmBaseUrl: 'http://127.0.0.1:9',
      vision: 'ollama:llava',
      ollamaUrl: server.url,
    });
    const vision = await createVisionModel(config);
    expect(vision?.id).toBe('ollama:llava');
    server.replies = ['A line chart of loss falling from 4 to 1.'];
    const answer = await modelFigureDescriber(vision!).describe(figure, AbortSignal.timeout(10_000));
    expect(answer).toBe('A line chart of loss falling from 4 to 1.');
    const request = server.received.at(-1);
    expect(request?.path).toBe('/api/chat');
    // @langchain/ollama sends each part as a user message of its own: the text, then the image.
    const user = request?.body.messages.filter((message) => message.role === 'user') ?? [];
    expect(user.flatMap((message) => message.images ?? [])).toEqual([PNG.toString('base64')]);
    expect(user.map((message) => message.content).join('\n')).toContain('Caption: Figure 2: Loss by step.');
  });
});
