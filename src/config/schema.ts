import { z } from 'zod';
import { agentsSchema } from './agents-schema.ts';
import { tablesSchema } from './tables-schema.ts';
import { limitsSchema } from './limits-schema.ts';
import { ingestSchema } from './ingest-schema.ts';
import { runsSchema } from './runs-schema.ts';
import { tracingSchema } from './tracing-schema.ts';
import { auditSchema } from './audit-schema.ts';
import { cronsSchema } from './crons-schema.ts';
import { webhooksSchema } from './webhooks-schema.ts';
import { scimSchema } from './scim-schema.ts';
import { sessionsSchema } from './sessions-schema.ts';
import { oidcSchema } from './oidc-schema.ts';

/** `provider` or `provider:model`, e.g. `offline`, `transformers:./models/all-MiniLM-L6-v2`, `ollama:nomic-embed-text`. */
const providerSpec = z.string().regex(/^[a-z-]+(:.+)?$/, 'expected "provider" or "provider:model"');

const approverList = z.array(z.enum(['owner', 'admin'])).min(1, 'name at least one approver: owner or admin');

export const configSchema = z
  .object({
    db: z.string().min(1).default('./.evident/evident.db').describe('The embedded SQLite file.'),
    databaseUrl: z
      .string()
      .regex(/^postgres(ql)?:\/\//i, 'expected a postgres:// URL')
      .optional()
      .describe(
        'A PostgreSQL database (`postgres://…`, optional `?schema=`): when set, the store lives there instead of in `db`.',
      ),
    databaseReadUrls: z
      .array(
        z.string().refine((url) => /^postgres(ql)?:\/\/[^/?#]/i.test(url) && URL.canParse(url), {
          message:
            'expected the postgres:// URL of a hot standby of databaseUrl, e.g. postgres://user:password@replica:5432/database (EVIDENT_DATABASE_READ_URLS separates several with commas)',
        }),
      )
      .optional()
      .describe(
        'Hot standbys of `databaseUrl` (`EVIDENT_DATABASE_READ_URLS`, comma-separated) that take retrieval, listing and history reads; writes, runs and checkpoints stay on the primary.',
      ),
    /** How the read replicas of `databaseReadUrls` are watched (PostgreSQL only). */
    database: z
      .object({
        replicaMaxLagMs: z
          .number()
          .int()
          .min(0)
          .max(3_600_000)
          .default(5000)
          .describe('A standby whose replay is further behind the primary than this is skipped until it catches up.'),
        replicaCheckIntervalMs: z
          .number()
          .int()
          .min(50)
          .max(600_000)
          .default(1000)
          .describe("How often each standby's health and replay position are checked."),
      })
      .prefault({}),
    embedder: providerSpec
      .default('offline')
      .describe(
        'The embedder: `offline` (a lexical hashing embedder, no weights), `transformers:<model or folder>`, `ollama:<model>` or `openai:<model>`; the store records which one built its vectors.',
      ),
    reranker: providerSpec
      .default('none')
      .describe(
        '`none`, `offline` (lexical), `cross-encoder:<model or folder>` or `llm` (the chat model grades). Off by default: the offline lexical reranker measured neutral on SciFact, so it does not earn its cost.',
      ),
    modelsDir: z
      .string()
      .default('./.evident/models')
      .describe('Where local model folders are looked up and hub downloads are cached.'),
    ollamaUrl: z.url().default('http://127.0.0.1:11434').describe('The Ollama server, for `ollama:` models.'),
    openaiBaseUrl: z
      .url()
      .default('https://api.openai.com/v1')
      .describe('The OpenAI-compatible endpoint for `openai:` models (OpenAI, vLLM, llama.cpp server, LM Studio).'),
    openaiApiKey: z
      .string()
      .optional()
      .describe('API key for `openai:` models; not needed by a local OpenAI-compatible server.'),
    llm: providerSpec
      .optional()
      .describe(
        'The chat model, `openai:<model>`, `ollama:<model>` or `llama-cpp:<path to .gguf>`. Unset: offline mode, where every LLM step uses its deterministic strategy.',
      ),
    llmBaseUrl: z
      .url()
      .optional()
      .describe(
        'Base URL for the chat model when it differs from `openaiBaseUrl` / `ollamaUrl` (a local vLLM, LM Studio…).',
      ),
    llmApiKey: z.string().optional().describe('API key for the chat model when it differs from `openaiApiKey`.'),
    vision: providerSpec
      .optional()
      .describe(
        'A model that reads images, `openai:<model>` or `ollama:<model>`: each captioned figure of a PDF is sent to it with its page, and its description is stored as a passage of that page, labelled with the model. Unset: figures are not described, only counted.',
      ),
    visionBaseUrl: z
      .url()
      .optional()
      .describe('Base URL for the vision model when it differs from `openaiBaseUrl` / `ollamaUrl`.'),
    visionApiKey: z.string().optional().describe('API key for the vision model when it differs from `openaiApiKey`.'),
    chunk: z
      .object({
        size: z.number().int().min(200).max(20_000).default(1200).describe('Target chunk size in characters.'),
        overlap: z
          .number()
          .int()
          .min(0)
          .max(5_000)
          .default(150)
          .describe('Characters of overlap carried into the next chunk (whole sentences).'),
      })
      .prefault({})
      .refine((chunk) => chunk.overlap < chunk.size / 2, {
        message: 'chunk.overlap must be less than half of chunk.size',
      }),
    /** The bounds of ingesting one file (size, expansion, XML, tables, text, chunks); see `ingest-schema.ts`. */
    ingest: ingestSchema,
    retrieval: z
      .object({
        rrfK: z.number().positive().default(60).describe('Reciprocal rank fusion constant.'),
        channelDepth: z
          .number()
          .int()
          .positive()
          .max(1000)
          .default(100)
          .describe('Candidates taken from each channel.'),
        rerankDepth: z
          .number()
          .int()
          .positive()
          .max(500)
          .default(50)
          .describe('Fused candidates passed to the reranker.'),
        topK: z.number().int().positive().max(200).default(5).describe('Results returned.'),
        channels: z
          .array(z.enum(['bm25', 'vector']))
          .min(1)
          .optional()
          .describe(
            'Unset: both channels when the embedder is semantic, BM25 alone with the offline (lexical) embedder, which made SciFact worse when fused. See `resolveRetrievalSettings`.',
          ),
      })
      .prefault({}),
    /** The bounds of one read-only table query (rows, time, result and value bytes, memory); see `tables-schema.ts`. */
    tables: tablesSchema,
    /**
     * Who may approve a side-effect tool's pending action, per tool: the thread's `owner`, any `admin`, or both.
     * E.g. `{"tools": {"save_memory": ["admin"]}}` makes saving memories an admin decision.
     */
    approvals: z
      .object({
        default: approverList
          .default(['owner', 'admin'])
          .describe("Who may approve a side-effect tool's pending action when the tool is not listed in `tools`."),
        tools: z
          .record(z.string(), approverList)
          .default({ save_memory: ['owner', 'admin'] })
          .describe(
            'Per tool: the thread\'s `owner`, any `admin`, or both; e.g. `{"save_memory": ["admin"]}` makes saving memories an admin decision.',
          ),
      })
      .prefault({}),
    runs: runsSchema,
    /** Scheduled runs: the scheduler, its poll interval and the bounds of crons; see `crons-schema.ts`. */
    crons: cronsSchema,
    /** Run webhooks: the signing secret, the hosts they may go to, retries and bounds; see `webhooks-schema.ts`. */
    webhooks: webhooksSchema,
    /** How the audit log records questions (`hash` or `text`); see `audit-schema.ts`. */
    audit: auditSchema,
    /** Browser sessions: lifetime, idle timeout, a trusted proxy's forwarded headers; see `sessions-schema.ts`. */
    sessions: sessionsSchema,
    /** What one HTTP request may carry (body bytes and depth, query, question, messages, metadata); see `limits-schema.ts`. */
    limits: limitsSchema,
    /** The bounds each agent runs within (retries, iterations, tasks, evidence, memory); see `agents-schema.ts`. */
    agents: agentsSchema,
    documentRoots: z
      .array(z.string().min(1))
      .max(64)
      .default([])
      .describe(
        "Folders the server may serve documents' original files from (`EVIDENT_DOCUMENT_ROOTS`, comma-separated): the folders you ingest from. A file is served only to a reader of its document, only from inside a root, and only while its bytes hash to the indexed version.",
      ),
    adminKey: z
      .string()
      .min(16, 'the admin key needs at least 16 characters')
      .optional()
      .describe(
        "The server's admin key (`EVIDENT_ADMIN_KEY`), for automation; users' own keys live hashed in the store.",
      ),
    /** OpenID Connect sign-in and the provider's bearer tokens (`EVIDENT_OIDC_*`); unset: off. See `oidc-schema.ts`. */
    oidc: oidcSchema.optional(),
    /** SCIM 2.0 provisioning (`/scim/v2`): the provisioning client's token and bounds; see `scim-schema.ts`. */
    scim: scimSchema,
    /** OpenTelemetry traces (exported when OTEL_EXPORTER_OTLP_ENDPOINT is set); see `tracing-schema.ts`. */
    tracing: tracingSchema,
    debug: z.boolean().default(false).describe('Print stack traces and debug logs (`--debug`).'),
  })
  .strict();

export type EvidentConfig = z.infer<typeof configSchema>;

/** Retrieval settings with every default resolved (the channels depend on the embedder). */
export type RetrievalSettings = Omit<EvidentConfig['retrieval'], 'channels'> & { channels: ('bm25' | 'vector')[] };

export const resolveRetrievalSettings = (
  config: EvidentConfig,
  embedder: { semantic: boolean },
): RetrievalSettings => ({
  ...config.retrieval,
  channels: config.retrieval.channels ?? (embedder.semantic ? ['bm25', 'vector'] : ['bm25']),
});
/** What a caller may pass: every field optional, nested objects partial. */
export type ConfigInput = z.input<typeof configSchema>;
