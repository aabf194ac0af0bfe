/** Where an answer came from: the offline strategies (no language model) or the named chat model. */
export function OriginLabel({ mode }: { mode: string | undefined }) {
  if (!mode) return null;
  if (mode === 'offline') {
    return (
      <span
        className="origin-label offline"
        data-testid="origin-label"
        title="Deterministic strategies: sentences quoted from the evidence; no language model was used."
      >
        Offline answer · no language model
      </span>
    );
  }
  return (
    <span className="origin-label model" data-testid="origin-label">
      Answered by {mode}
    </span>
  );
}
