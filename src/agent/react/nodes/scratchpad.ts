import type { Observation, ReactTurn } from '../react-state.ts';

/** The transcript with observations added to its last turn (the turn whose calls they answer). */
export function withObservations(scratchpad: readonly ReactTurn[], observations: readonly Observation[]): ReactTurn[] {
  const last = scratchpad.at(-1);
  if (!last || observations.length === 0) return [...scratchpad];
  return [...scratchpad.slice(0, -1), { ...last, observations: [...last.observations, ...observations] }];
}

export const clip = (text: string, max = 140): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
};
