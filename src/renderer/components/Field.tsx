/** A labelled form control whose frame turns red when the last error names its field. */

import { useId, type ReactElement, type ReactNode } from 'react';
import type { ApiError } from '../../shared/api/result.js';
import { errorIsFor } from './ErrorMessage.js';

export function Field({
  label,
  hint,
  field,
  error,
  children,
}: {
  label: string;
  hint?: ReactNode;
  /** The contract's input field this control edits (dotted path). */
  field: string;
  error: ApiError | null;
  children: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby': string }) => ReactElement;
}) {
  const id = useId();
  const invalid = errorIsFor(error, field);
  return (
    <div className={invalid ? 'field invalid' : 'field'} data-field={field}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': invalid, 'aria-describedby': id + '-hint' })}
      <div className="hint" id={id + '-hint'}>
        {invalid ? error!.message : hint}
      </div>
    </div>
  );
}
