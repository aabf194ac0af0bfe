import type { RagNode } from '../rag-deps.ts';

/** Small talk needs no evidence and makes no claim about the documents. */
export const answerDirectly: RagNode = async () => ({
  update: {
    answer: {
      answer: 'Hello! Ask me a question about your documents; I answer from the evidence you may see, with citations.',
      answerable: true,
      confidence: 1,
      citations: [],
      missing_information: [],
    },
    status: 'answered',
  },
  summary: 'answered without retrieval',
});
