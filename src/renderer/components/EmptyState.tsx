/** What an empty list says: what is missing and the next step to fill it. */

import type { ReactNode } from 'react';

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <strong>{title}</strong>
      {children !== undefined && <div>{children}</div>}
    </div>
  );
}
