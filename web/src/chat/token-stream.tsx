import type { RunView } from './run-view.ts';

/** What a chat model is writing, token by token, per node, while the run streams. */
export function TokenStream({ tokens }: { tokens: RunView['tokens'] }) {
  if (tokens.length === 0) return null;
  return (
    <section className="token-stream" aria-live="polite">
      {tokens.map((part, i) => (
        <div key={`${part.node}-${i}`}>
          <span className="step-node">{part.node}</span>
          <p className="tokens">{part.text}</p>
        </div>
      ))}
    </section>
  );
}
