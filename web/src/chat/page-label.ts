/**
 * Documents whose `page` numbers slides (PPTX, ODP decks). The same rule as `src/domain/page-label.ts`, kept here
 * because the web UI imports only types from the server's side.
 */
const SLIDE_DECK = /\.(pptx|odp)$/i;
/** A mailbox (`.mbox`): its `page` numbers the messages. */
const MAILBOX = /\.mbox$/i;

/** A citation's place as its reader knows it: `slide 3` in a slide deck, `message 3` in a mailbox, `p. 3` elsewhere. */
export const pageLabel = (docId: string, page: number): string =>
  SLIDE_DECK.test(docId) ? `slide ${page}` : MAILBOX.test(docId) ? `message ${page}` : `p. ${page}`;

/** The name of the fact in the citation panel: `Slide`, `Message` or `Page`. */
export const pageNoun = (docId: string): string =>
  SLIDE_DECK.test(docId) ? 'Slide' : MAILBOX.test(docId) ? 'Message' : 'Page';
