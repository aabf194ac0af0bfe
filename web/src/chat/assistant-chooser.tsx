import type { Assistants } from './use-assistants.ts';

/** Which agent answers: a chooser once there are several, else just its name. */
export function AssistantChooser({ assistants }: { assistants: Assistants }) {
  if (assistants.list.length === 0) return null;
  if (assistants.list.length === 1) {
    return (
      <span className="assistant-name">
        agent <strong>{assistants.selected}</strong>
      </span>
    );
  }
  return (
    <label className="assistant-name">
      agent{' '}
      <select
        aria-label="Agent"
        value={assistants.selected ?? ''}
        onChange={(event) => assistants.select(event.target.value)}
      >
        {assistants.list.map((assistant) => (
          <option key={assistant.assistant_id} value={assistant.assistant_id}>
            {assistant.name || assistant.assistant_id}
          </option>
        ))}
      </select>
    </label>
  );
}
