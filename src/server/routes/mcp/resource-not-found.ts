import { jsonRpcError } from './json-rpc-error.ts';

/** JSON-RPC code the MCP spec gives a resource that is not there. */
const RESOURCE_NOT_FOUND = -32002;

/**
 * The one answer for a resource the caller cannot have: missing, unreadable to them, or malformed all read the same
 * (only the URI they sent is echoed), so an id tells nothing of a document they may not read.
 */
export const resourceNotFound = (uri: URL): Error =>
  jsonRpcError(RESOURCE_NOT_FOUND, `Resource ${uri.href} not found`, { uri: uri.href });
