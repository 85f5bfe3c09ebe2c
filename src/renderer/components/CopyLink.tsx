/**
 * "Copy link": the address of what is on screen (router.ts keeps it in the
 * address bar), to paste and open later. Where the clipboard is refused (a
 * browser setting, an insecure origin) the link is shown selected instead,
 * to copy by hand.
 */

import { useRef, useState } from 'react';

export function CopyLink({ label = 'Copy link' }: { label?: string }) {
  const [state, setState] = useState<{ kind: 'idle' } | { kind: 'copied' } | { kind: 'manual'; href: string }>({ kind: 'idle' });
  const field = useRef<HTMLInputElement>(null);

  async function copy(): Promise<void> {
    const href = window.location.href;
    try {
      await navigator.clipboard.writeText(href);
      setState({ kind: 'copied' });
    } catch {
      setState({ kind: 'manual', href });
      queueMicrotask(() => field.current?.select());
    }
  }

  return (
    <span className="copy-link">
      <button type="button" onClick={() => void copy()} data-testid="copy-link" title="Copy the address of this page, to open it again later">
        {label}
      </button>
      <span role="status" className="muted small">
        {state.kind === 'copied' ? 'Link copied.' : state.kind === 'manual' ? 'The clipboard is not available here: copy the link from this field.' : ''}
      </span>
      {state.kind === 'manual' && <input ref={field} readOnly value={state.href} aria-label="Link to this page" className="copy-link-field" onFocus={(e) => e.currentTarget.select()} />}
    </span>
  );
}
