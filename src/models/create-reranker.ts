import type { EvidentConfig } from '../config/schema.ts';
import { ConfigError } from '../errors/index.ts';
import { LexicalReranker } from './offline/lexical-reranker.ts';
import { parseProviderSpec } from './parse-provider-spec.ts';
import type { Reranker } from './reranker.ts';

const RERANKERS = 'offline, none, cross-encoder:<folder or hub id>';

/** The reranker `config.reranker` names, or undefined for `none`. The cross-encoder loads transformers on demand. */
export async function createReranker(config: EvidentConfig): Promise<Reranker | undefined> {
  const { provider, model } = parseProviderSpec(config.reranker);
  switch (provider) {
    case 'none':
      return undefined;
    case 'offline':
      return new LexicalReranker();
    case 'cross-encoder': {
      if (!model) {
        throw new ConfigError('The cross-encoder reranker needs a model.', {
          hint: 'For example cross-encoder:Xenova/ms-marco-MiniLM-L-6-v2 or cross-encoder:./models/ms-marco-MiniLM-L-6-v2.',
        });
      }
      const { CrossEncoderReranker } = await import('./transformers/cross-encoder-reranker.ts');
      return CrossEncoderReranker.create({ model, modelsDir: config.modelsDir });
    }
    default:
      throw new ConfigError(`Unknown reranker ${JSON.stringify(provider)}.`, { hint: `Use one of: ${RERANKERS}.` });
  }
}
