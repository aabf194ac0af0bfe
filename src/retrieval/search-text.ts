/** Where retrieval and ingestion have always imported it from; defined in text/ so the store's backfill reads it too. */
export { chunkSearchText } from '../text/chunk-search-text.ts';
