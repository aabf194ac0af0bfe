/**
 * The key shared by every message of a thread: the id of the message that started it. A reply names its ancestors in
 * References, oldest first (RFC 5322 §3.6.4), so its first entry is the root; a client that sends only In-Reply-To
 * names the parent, the best root known; a message that replies to nothing starts its own thread.
 */
export function threadKey(headers: {
  messageId?: string;
  inReplyTo?: string;
  references: readonly string[];
}): string | undefined {
  return headers.references[0] ?? headers.inReplyTo ?? headers.messageId;
}
