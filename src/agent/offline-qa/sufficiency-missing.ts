import { informationNeed, type MissingContext } from './information-need.ts';
import type { AttributeReading } from './sufficiency-attribute.ts';

/** Below this the head of the question's focus counts as not stated (a synonym alone reaches 0.75). */
const STATED = 0.75;
const WH_NOUN = /^(?:at |in |for |on |by |from |to )?(?:what|which|whose)\s+/i;
const QUESTION_END = /[\s?？.!。！]+$/u;

const AUXILIARY = /^(?:do|does|did|is|are|was|were|has|have|had|can|could|will|would|should|may|might|must)$/i;

/**
 * "Which support engineer handled HIP-12" → "the support engineer that handled HIP-12"; a question with do-support
 * or a copula after its head ("at what price did the team buy …") keeps its words after the head: "the price (at
 * what price did the team buy …)".
 */
function nounNeed(body: string, headWords: readonly string[]): string {
  const head = headWords.join(' ');
  const phrase = headWords.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join(`(?:['’]s)?\\s+`);
  const match = new RegExp(`^(?:\\w+\\s+)?(?:what|which|whose)\\s+${phrase}(?:['’]s)?\\s+(\\S+)(.*)$`, 'iu').exec(body);
  if (match && !AUXILIARY.test(match[1] as string)) return `the ${head} that ${match[1]}${match[2]}`;
  return `the ${head} (${body.charAt(0).toLowerCase()}${body.slice(1)})`;
}

/**
 * What a refusal names as missing when the evidence is about the question's topic but does not state the asked
 * attribute (the head of its focus, sufficiency-head.ts): "the signer of CT-2024-0193 …" is said as "who signed
 * CT-2024-0193 on behalf of Northwind Logistics (the evidence found mentions CT-2024-0193, Northwind Logistics but
 * does not say who signed)". Undefined when no head was read or the head is stated (the generic description
 * applies then, as it does to a question that wraps a noun phrase: "what is <the fee of X>").
 */
export function missingAttribute(context: MissingContext, attribute: AttributeReading): string | undefined {
  if (attribute.headWords.length === 0 || attribute.headStated >= STATED || context.evidence === 0) return undefined;
  const body = context.question.trim().replace(QUESTION_END, '');
  // "What is the termination fee of X" already reads as the noun phrase it asks for (information-need.ts).
  if (informationNeed(context.question) !== body) return undefined;
  const head = attribute.headWords.join(' ');
  const need =
    attribute.headKind === 'noun' && WH_NOUN.test(body)
      ? nounNeed(body, attribute.headWords)
      : `${body.charAt(0).toLowerCase()}${body.slice(1)}`;
  const wh = /^(?:who|whom|when|where|why|how(?:\s+(?:often|long|much|many|soon))?)\b/i.exec(body)?.[0]?.toLowerCase();
  // "who signed" reads as it stands; "how often … rotate" keeps the question's verb beside its question word.
  const lacking =
    attribute.headKind === 'noun'
      ? `states no ${head}`
      : wh
        ? `does not say ${wh}${wh === 'who' ? '' : ' …'} ${head}`
        : `does not state ${head}`;
  const ids = context.identifiers.join(', ');
  const found = ids && context.identifiersFound ? `mentions ${ids}` : context.related > 0 ? 'is related' : '';
  if (!found) return undefined;
  return `${need} (the evidence found ${found} but ${lacking})`;
}
