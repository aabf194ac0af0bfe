import type { AnswerType } from '../language.ts';

/**
 * What an English question asks for, read from its question words and the noun they govern ("which company" asks
 * for an organisation, "how long" for a duration). Ordered: the first rule that applies wins, so "how many days"
 * is a duration and not a bare number.
 */
const RULES: readonly [RegExp, AnswerType][] = [
  // "Can you tell me about Bank of America?", "Could you give me some information on …": a request, not a yes or no.
  [
    /^(?:(?:can|could|would|will) you (?:please )?|please )(?:tell|give|provide|share|describe|explain|summari[sz]e|shed light|walk)\b/i,
    'any',
  ],
  // A question word left at the end asks what it asks at the start ("… another sport that was started when?").
  [/\bwhen\s*\?\s*$/i, 'date'],
  [/\bwhere\s*\?\s*$/i, 'place'],
  [/\b(?:who|whom)\s*\?\s*$/i, 'person'],
  [/^(?:is|are|was|were|do|does|did|can|could|should|shall|will|would|has|have|had|may|must|might)\b/i, 'yes_no'],
  // "How to become an agent, and does it pay?", "Why is …": a way or a reason, whatever nouns follow.
  [/^(?:how (?:to|do|does|did|can|could|should|would|is|are|was|were)|why)\b/i, 'any'],
  // "Who has to sign off on a trip that will cost $3,000?" asks for a person, whatever the sentence names.
  // ("Who had the highest number of goals?" is decided by the numbers, below.)
  [/^(?:who|whom)\b(?!.*\b(?:number of|how many|most|highest|lowest|least|fewest)\b)/i, 'person'],
  [
    /\b(?:how long|how many (?:seconds|minutes|hours|days|weeks|months|years)|how (?:soon|early|quickly|fast|often|frequently)|for how long|duration|notice period|within how)\b/i,
    'duration',
  ],
  [
    // "amount of TEUs" is a number; a verb of paying asks a sum only in a what/how-much question.
    /\b(?:how much|price|prices|pricing|cost|costs|fee|fees|amount(?!\s+of\s+(?!money|cash|funds|capital|debt|tax|taxes|interest)\w)|salary|budget)\b|^(?:what|which|how much)\b.*\b(?:pay|paid|charge|charged|spend|spent)\b/i,
    'amount',
  ],
  [
    /^(?:when|until when|since when)\b|\b(?:what (?:date|day|year|month|time)|which (?:date|day|year|month)|in what year|deadline|until when|since when)\b/i,
    'date',
  ],
  [
    /\b(?:how many|number of|amount of|percentage|percent|share of|rate|ratio|cap|capped|limit|limits|how old|how big|how large|how tall|how far)\b/i,
    'number',
  ],
  [
    /\b(?:which|what) (?:company|companies|organi[sz]ation|organi[sz]ations|firm|team|agency|bank|university|vendor|supplier|customer|partner|band|club|publisher|network|party)\b/i,
    'organization',
  ],
  [
    /\b(?:where|which (?:country|city|place|state|town|region|continent)|what (?:country|city|place|state|town|region))\b/i,
    'place',
  ],
  [
    /^(?:who|whom|whose)\b|\b(?:who|whom|whose) (?:is|was|are|were|did|does|do|has|had|will|may|must|can)\b|\bwhich (?:person|people|employee|manager|author|director|actor|actress|player|singer|writer)\b/i,
    'person',
  ],
  [
    /^(?:list|name|enumerate)\b|\b(?:which|what) (?:\w+ ){0,2}(?:events|types|kinds|steps|items|options|scopes|categories|fields|methods|ways|features|members|countries|products)\b/i,
    'list',
  ],
  [
    /^(?:what (?:is|are|was|were) (?:a |an |the )?[\w\s-]{1,40}\??$|what does .+ (?:mean|stand for)|define|meaning of|definition of)/i,
    'definition',
  ],
];

/** "Do you remember what …", "Can you tell me when …": a polite frame around a wh-question, which says what is asked. */
const EMBEDDING =
  /^(?:(?:do|can|could|would|will) you (?:please )?(?:remember|recall|know|tell me|tell us|say|find out|check)|please (?:tell me|remind me))\s+(?=(?:what|which|who|whom|whose|when|where|why|how)\b)/i;

export function englishAnswerType(question: string): AnswerType {
  const q = question.trim().replace(EMBEDDING, '');
  for (const [pattern, type] of RULES) if (pattern.test(q)) return type;
  return 'any';
}
