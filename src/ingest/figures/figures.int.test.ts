import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, type ConfigInput } from '../../config/schema.ts';
import { LOCAL_OPERATOR } from '../../domain/index.ts';
import { createEvident, type CreateEvidentOptions } from '../../evident.ts';
import { silentLogger } from '../../logging/logger.ts';
import { FakeLlmServer, type WirePart } from '../../testing/fake-llm-server.ts';
import { buildPdf } from '../../testing/pdf-builder.ts';
import { RecordingChatModel } from '../../testing/recording-chat-model.ts';
import { describeWith, pdfRenderer } from '../../testing/requirements.ts';
import { INGEST_DEFAULTS } from '../limits.ts';
import { describeFigures } from './describe-figures.ts';

const CAPTION = 'Figure 1: Containers moved per month by the eastern cranes.';
const READING = 'A bar chart of containers per month: about 400 in January, rising to 900 in July.';
// Page 1 is most of a chunk (chunk.size 200), so the chunk that holds the caption starts on page 2.
const REPORT = buildPdf([
  [
    { text: 'Harbour report', size: 18, bold: true },
    { text: 'The eastern cranes were renewed in spring and moved more containers', gapBefore: 12 },
    { text: 'than the western ones in every month of the year that followed.' },
  ],
  [
    { text: 'Throughput', size: 14, bold: true },
    { text: CAPTION, gapBefore: 200 },
  ],
]);

let dir: string;
let file: string;
const server = new FakeLlmServer();
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-figures-'));
  file = join(dir, 'docs', 'harbour.pdf');
  await mkdir(join(dir, 'docs'));
  await writeFile(file, REPORT);
  await server.start();
});
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Ingests the report into a fresh store; its summary and every stored chunk. */
async function ingest(config: ConfigInput, options: CreateEvidentOptions = {}) {
  const db = join(dir, `${Math.random().toString(36).slice(2)}.db`);
  const evident = await createEvident(configSchema.parse({ ...config, db, chunk: { size: 200, overlap: 0 } }), options);
  try {
    const summary = await evident.ingestor.ingest([join(dir, 'docs')]);
    const outcome = summary.outcomes[0];
    const ids = Array.from({ length: outcome?.chunks ?? 0 }, (_, i) => `harbour.pdf#${i}`);
    const chunks = await evident.store.getChunks(ids, LOCAL_OPERATOR);
    return { summary, outcome, chunks };
  } finally {
    await evident.close();
  }
}

describe('figures offline', () => {
  it('describes nothing and counts the figure as not described', async () => {
    const { summary, outcome, chunks } = await ingest({});
    expect(outcome?.status).toBe('added');
    expect(summary.figures).toEqual({ described: 0, notDescribed: 1 });
    expect(outcome?.figures).toEqual({ described: 0, notDescribed: 1 });
    expect(chunks.some((chunk) => chunk.text.includes(CAPTION))).toBe(true);
    expect(chunks.some((chunk) => chunk.text.includes('described by'))).toBe(false);
  });
});

describeWith(pdfRenderer(), 'figures with a vision model', () => {
  it("stores the model's reading of the figure on its page, labelled with the model; the model saw the page and the caption", async () => {
    server.received.length = 0;
    server.replies = [READING];
    const { summary, chunks } = await ingest({ vision: 'openai:fake-vision', visionBaseUrl: `${server.url}/v1` });
    expect(summary.figures).toEqual({ described: 1, notDescribed: 0 });
    const described = chunks.find((chunk) =>
      chunk.text.includes(`Figure 1 (described by openai:fake-vision): ${READING}`),
    );
    expect(described?.page).toBe(2);

    expect(server.received).toHaveLength(1);
    const request = server.received[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.body.model).toBe('fake-vision');
    const parts = request.body.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : []));
    const text = parts.find((part): part is Extract<WirePart, { type: 'text' }> => part.type === 'text');
    expect(text?.text).toContain(CAPTION);
    const image = parts.find((part): part is Extract<WirePart, { type: 'image_url' }> => part.type === 'image_url');
    const url = image?.image_url.url ?? '';
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    const png = Buffer.from(url.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('a model that fails leaves the document stored and the figure counted as not described', async () => {
    const broken = new RecordingChatModel();
    const { outcome, chunks } = await ingest({}, { vision: { id: 'openai:broken', model: broken } });
    expect(outcome?.status).toBe('added');
    expect(outcome?.figures).toEqual({ described: 0, notDescribed: 1 });
    expect(broken.calls).toHaveLength(1);
    expect(chunks.some((chunk) => chunk.text.includes(CAPTION))).toBe(true);
    expect(chunks.some((chunk) => chunk.text.includes('described by'))).toBe(false);
  });

  it('two figures of one page: each is described after its own caption, from the same picture of the page', async () => {
    const second = 'Fig. 2. Berths by depth.';
    const seen: { label: string; png: Buffer }[] = [];
    const { blocks, counts } = await describeFigures({
      docId: 'harbour.pdf',
      docTitle: 'Harbour report',
      pdf: REPORT,
      figures: [
        { page: 2, label: 'Figure 1', caption: CAPTION },
        { page: 2, label: 'Figure 2', caption: second },
      ],
      blocks: [
        { kind: 'text', text: CAPTION, page: 2 },
        { kind: 'text', text: second, page: 2 },
      ],
      describer: {
        id: 'openai:v',
        describe: async (figure) => {
          seen.push({ label: figure.label, png: figure.png });
          return `the picture of ${figure.label}`;
        },
      },
      config: INGEST_DEFAULTS.figures,
      logger: silentLogger,
    });
    expect(counts).toEqual({ described: 2, notDescribed: 0 });
    expect(blocks.map((block) => block.text)).toEqual([
      CAPTION,
      'Figure 1 (described by openai:v): the picture of Figure 1',
      second,
      'Figure 2 (described by openai:v): the picture of Figure 2',
    ]);
    expect(seen.map((call) => call.label)).toEqual(['Figure 1', 'Figure 2']);
    expect(seen[1]?.png.equals(seen[0]!.png)).toBe(true);
  });

  it('a model that does not answer within ingest.figures.timeoutMs is given up on', async () => {
    const figures = [{ page: 2, label: 'Figure 1', caption: CAPTION }];
    const { counts } = await describeFigures({
      docId: 'harbour.pdf',
      docTitle: 'Harbour report',
      pdf: REPORT,
      figures,
      blocks: [{ kind: 'text', text: CAPTION, page: 2 }],
      describer: { id: 'openai:stuck', describe: () => new Promise<string>(() => undefined) },
      config: { ...INGEST_DEFAULTS.figures, timeoutMs: 1_000 },
      logger: silentLogger,
    });
    expect(counts).toEqual({ described: 0, notDescribed: 1 });
  });
});
