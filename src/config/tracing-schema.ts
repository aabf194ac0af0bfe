import { z } from 'zod';

/**
 * OpenTelemetry traces. Whether spans are exported, and where, follows OpenTelemetry's own variables
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `OTEL_SERVICE_NAME`); this is what Evident adds.
 */
export const tracingSchema = z
  .object({
    recordQuestions: z
      .boolean()
      .default(false)
      .describe(
        "Put the run's question and a search's query into the run and search spans (`evident.question`). Off by default: a question can be as confidential as the documents it asks about, and a trace backend is rarely as guarded.",
      ),
  })
  .strict()
  .prefault({});
export type TracingConfig = z.infer<typeof tracingSchema>;
