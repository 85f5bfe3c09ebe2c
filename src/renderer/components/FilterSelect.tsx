/** A table filter: a labelled select whose first choice, "any", is the empty value (no filter). */

export interface FilterChoice<T extends string> {
  readonly value: T;
  readonly label: string;
}

export function FilterSelect<T extends string>(props: {
  readonly label: string;
  readonly value: T | '';
  /** Plain values are their own labels. */
  readonly choices: readonly (T | FilterChoice<T>)[];
  readonly onChange: (value: T | '') => void;
  readonly ariaLabel?: string;
}) {
  const { label, value, choices, onChange, ariaLabel } = props;
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value as T | '')} aria-label={ariaLabel}>
        <option value="">any</option>
        {choices.map((choice) => {
          const { value: v, label: text } = typeof choice === 'string' ? { value: choice, label: choice } : choice;
          return (
            <option key={v} value={v}>
              {text}
            </option>
          );
        })}
      </select>
    </label>
  );
}
