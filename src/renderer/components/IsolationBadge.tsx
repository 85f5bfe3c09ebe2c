/** A trial's isolation level as a small pill (isolation-badge.ts): `no sandbox` in the warning colour. */

import type { TrialRow } from '../../shared/api/contract.js';
import { isolationBadge } from './isolation-badge.js';

export function IsolationBadge({ isolation }: { isolation: TrialRow['isolation'] }) {
  const badge = isolationBadge(isolation);
  return (
    <span className={`pill ${badge.className}`} title={badge.title} data-testid="isolation" aria-label={`Agent isolation: ${badge.label}`}>
      {badge.label}
    </span>
  );
}
