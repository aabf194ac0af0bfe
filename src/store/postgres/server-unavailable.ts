/**
 * Whether a failed read says the server could not serve it (refused or lost connection, shutdown, a standby
 * cancelling the statement for a conflict with recovery) rather than that the read itself is wrong: the first kind
 * is retried on the primary, the second is the caller's error wherever it runs.
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '40001', '53300']);
const ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const MESSAGES =
  /connection terminated|timeout exceeded when trying to connect|connection error|terminating connection|the database system is (starting up|shutting down)/i;

export function isServerUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 6; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (code.startsWith('08') || SQLSTATES.has(code) || ERRNOS.has(code))) return true;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
