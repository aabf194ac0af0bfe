/**
 * An error the SDK sends as a JSON-RPC error with this code, message and data. The SDK's own `McpError` puts
 * "MCP error <code>: " in front of its message, and a client adds that again: this one sends the message as it is.
 */
export const jsonRpcError = (code: number, message: string, data?: Record<string, unknown>): Error =>
  Object.assign(new Error(message), { code, ...(data ? { data } : {}) });
