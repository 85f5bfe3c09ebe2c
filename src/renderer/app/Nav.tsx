/** The left navigation: one button per view, arrow keys move between them, Alt+digit jumps from anywhere. */

import { useRef, type KeyboardEvent } from 'react';
import { VIEWS, type Location, type ViewId } from './views.js';

export function Nav({ location, onGo, running }: { location: Location; onGo: (view: ViewId) => void; running: number }) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const active = location.view === 'trial' || location.view === 'replay' ? 'trials' : location.view;

  function onKeyDown(event: KeyboardEvent, index: number) {
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    refs.current[(index + step + VIEWS.length) % VIEWS.length]?.focus();
  }

  return (
    <nav className="nav" aria-label="Views">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        EMBER Workbench
      </div>
      <ul>
        {VIEWS.map((v, i) => (
          <li key={v.id}>
            <button
              type="button"
              ref={(el) => {
                refs.current[i] = el;
              }}
              className={active === v.id ? 'nav-item active' : 'nav-item'}
              aria-current={active === v.id ? 'page' : undefined}
              onClick={() => onGo(v.id)}
              onKeyDown={(e) => onKeyDown(e, i)}
              title={`Alt+${v.key}`}
            >
              <span>{v.label}</span>
              {v.id === 'run' && running > 0 && <span className="badge">{running} running</span>}
              <kbd>Alt+{v.key}</kbd>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
