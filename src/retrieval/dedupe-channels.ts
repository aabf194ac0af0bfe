import type { ChannelName } from '../domain/index.ts';
import type { FusedCandidate } from './fuse.ts';

/** Whether `candidate` was found by a channel that one of `kept` was not found by. */
export function mayGiveEvidence(candidate: FusedCandidate, kept: readonly FusedCandidate[]): boolean {
  for (const channel of Object.keys(candidate.channels) as ChannelName[])
    for (const other of kept) if (!other.channels[channel]) return true;
  return false;
}

/** The kept passage inherits channel evidence it lacked from its dropped twin, so a trace shows both found it. */
export function inheritChannels(keeper: FusedCandidate, dropped: FusedCandidate): void {
  for (const [channel, hit] of Object.entries(dropped.channels) as [ChannelName, { rank: number; score: number }][]) {
    if (!keeper.channels[channel]) keeper.channels[channel] = { ...hit };
  }
}
