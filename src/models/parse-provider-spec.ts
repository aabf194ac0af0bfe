/** `provider:model` → parts; the model may itself contain `:` (`ollama:nomic-embed-text:v1.5`). */
export function parseProviderSpec(spec: string): { provider: string; model: string } {
  const at = spec.indexOf(':');
  return at < 0
    ? { provider: spec.trim(), model: '' }
    : { provider: spec.slice(0, at).trim(), model: spec.slice(at + 1).trim() };
}
