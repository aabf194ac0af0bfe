import { useState, type FormEvent } from 'react';

/** The question box; Enter asks, Shift+Enter adds a line. Disabled while a run streams. */
export function QuestionForm({ onAsk, disabled }: { onAsk: (question: string) => void; disabled: boolean }) {
  const [question, setQuestion] = useState('');
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const asked = question.trim();
    if (!asked || disabled) return;
    onAsk(asked);
    setQuestion('');
  };
  return (
    <form className="question-form" onSubmit={submit}>
      <textarea
        aria-label="Question"
        placeholder="Ask about your documents…"
        value={question}
        rows={2}
        onChange={(event) => setQuestion(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            submit();
          }
        }}
      />
      <button type="submit" className="primary" disabled={disabled || !question.trim()}>
        Ask
      </button>
    </form>
  );
}
