import type { RunManager } from '../../../runs/run-manager.ts';
import type { LimitsConfig } from '../../../config/index.ts';
import type { Principal } from '../../../domain/index.ts';
import type { Evident } from '../../../evident.ts';

/**
 * What one MCP server works with: the Evident, the ONE run engine, and the principal every tool, resource and prompt
 * acts as (the key's owner over HTTP, the operator or `--as <user>` over stdio). A server is built per principal,
 * so no handler can reach another caller's identity.
 */
export interface McpContext {
  evident: Evident;
  runs: RunManager;
  principal: Principal;
  limits: LimitsConfig;
}
