/** A determinate progress bar, or an indeterminate one while the total is unknown. */

export function ProgressBar({ done, total, label }: { done: number; total: number | null; label: string }) {
  const percent = total === null || total === 0 ? null : Math.min(100, Math.floor((done / total) * 100));
  return (
    <div className="progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent ?? undefined}>
      <div className={percent === null ? 'progress-fill indeterminate' : 'progress-fill'} style={percent === null ? undefined : { width: `${percent}%` }} />
    </div>
  );
}

/** "Working..." with a spinner, for actions without a measurable total. */
export function Busy({ label }: { label: string }) {
  return (
    <span className="busy" role="status">
      <span className="spinner" aria-hidden="true" />
      {label}
    </span>
  );
}
