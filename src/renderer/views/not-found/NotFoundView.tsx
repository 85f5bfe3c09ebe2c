/**
 * What an address that names nothing shows: a mistyped or outdated link, or
 * a trial that is not (or no longer) in this archive. Says which, and offers
 * a way back, instead of an error.
 */

import type { Navigate } from '../../app/navigate.js';

export function NotFoundView({ hash, what, go }: { hash: string; what: 'page' | 'trial'; go: Navigate }) {
  const title = what === 'trial' ? 'Trial not found' : 'Page not found';
  return (
    <section className="view" data-testid="not-found">
      <header className="view-header">
        <h1 tabIndex={-1}>{title}</h1>
      </header>
      <div className="card">
        {what === 'trial' ? (
          <p>
            This archive has no such trial: it was deleted, or the link comes from another archive. The address bar still holds the link (<code>{hash}</code>).
          </p>
        ) : (
          <p>
            The workbench has no page at <code>{hash}</code>: the link is mistyped or cut short.
          </p>
        )}
        <div className="form-actions">
          {window.history.length > 1 && (
            <button type="button" onClick={() => window.history.back()}>
              ← Back
            </button>
          )}
          <button type="button" className="primary" onClick={() => go({ view: 'trials' })}>
            All trials
          </button>
          <button type="button" onClick={() => go({ view: 'overview' })}>
            Project overview
          </button>
        </div>
      </div>
    </section>
  );
}
