/** The transcript panel (components/TranscriptPanel.tsx) driven by a replay's clock: the call that drove the shown step is marked; a call's step seeks there. */

import { TranscriptPanel } from '../components/TranscriptPanel.js';
import type { PlaybackClock } from './clock.js';
import { useClockStep } from './ReplayControls.js';

export function ReplayTranscript({ trialId, index, clock }: { trialId: number; index: number; clock: PlaybackClock }) {
  const { step } = useClockStep(clock);
  return (
    <TranscriptPanel
      trialId={trialId}
      index={index}
      step={step}
      onSeek={(s) => {
        clock.pause();
        clock.seek(s);
      }}
    />
  );
}
