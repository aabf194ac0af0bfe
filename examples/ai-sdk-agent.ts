import { generateText, stepCountIs, type LanguageModel } from 'ai';
import { evidentTools } from 'evident/ai-sdk';

/** Your model answers `question`, searching Evident and asking its agents as the key's user when it needs evidence. */
export async function answerWithEvident(model: LanguageModel, question: string) {
  const tools = evidentTools({
    url: process.env.EVIDENT_URL ?? 'http://127.0.0.1:8787',
    apiKey: process.env.EVIDENT_KEY ?? '',
  });
  const { text, steps } = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: question });
  // Each tool result: the search's passages, or the answer contract (answer, citations, missing_information).
  return { text, evidence: steps.flatMap((step) => step.toolResults.map((result) => result.output)) };
}
