/**
 * Documents whose `page` numbers slides (PPTX, ODP decks): a citation there names the slide. The web UI, which may
 * import no code from here, keeps the same rule in `web/src/chat/page-label.ts`.
 */
const SLIDE_DECK = /\.(pptx|odp)$/i;
/** A mailbox (`.mbox`): its `page` numbers the messages. */
const MAILBOX = /\.mbox$/i;

/** A citation's place as its reader knows it: `slide 3` in a slide deck, `message 3` in a mailbox, `p. 3` elsewhere. */
export function pageLabel(docId: string, page: number): string {
  return SLIDE_DECK.test(docId) ? `slide ${page}` : MAILBOX.test(docId) ? `message ${page}` : `p. ${page}`;
}
