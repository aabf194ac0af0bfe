/** Greetings and thanks: answered without retrieval, they make no claim about the documents. */
const SMALL_TALK =
  /^\s*(hi|hello|hey|thanks|thank you|good (morning|afternoon|evening))\b[\s!.,]*(there|a lot|so much|evident)?[\s!.]*$/i;

export const isSmallTalk = (question: string): boolean => SMALL_TALK.test(question);
