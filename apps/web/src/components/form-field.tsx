import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

// Labelled form controls. A control with `invalid` is marked aria-invalid and points at the form's
// error line (FormErrors), so one message is read once even when several fields caused it.

interface FieldShell {
  label: ReactNode;
  /** A quiet line under the control (format, what is optional). */
  hint?: ReactNode;
  invalid?: boolean;
  /** The id of the FormErrors element describing the problem. */
  errorId?: string;
  /** Something beside the control (a Max or Show button). */
  addon?: ReactNode;
}

function Shell({ id, label, hint, addon, children }: FieldShell & { id: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div className={addon ? 'field-row' : undefined}>
        {children}
        {addon}
      </div>
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

const describedBy = (id: string, hint: unknown, invalid?: boolean, errorId?: string) =>
  [hint ? `${id}-hint` : '', invalid && errorId ? errorId : ''].filter(Boolean).join(' ') || undefined;

/** The attributes every control shares: its id (given or generated) and how it points at its hint and error. */
function useControl(given: string | undefined, { hint, invalid, errorId }: FieldShell) {
  const auto = useId();
  const id = given ?? auto;
  return {
    id,
    className: 'input',
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy(id, hint, invalid, errorId),
  };
}

type TextFieldProps = FieldShell & InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };

export function TextField({ label, hint, invalid, errorId, addon, ref, ...input }: TextFieldProps) {
  const control = useControl(input.id, { label, hint, invalid, errorId });
  return (
    <Shell id={control.id} label={label} hint={hint} addon={addon}>
      <input {...input} ref={ref} {...control} />
    </Shell>
  );
}

type TextAreaFieldProps = FieldShell &
  TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> };

export function TextAreaField({ label, hint, invalid, errorId, ref, ...area }: TextAreaFieldProps) {
  const control = useControl(area.id, { label, hint, invalid, errorId });
  return (
    <Shell id={control.id} label={label} hint={hint}>
      <textarea {...area} ref={ref} {...control} />
    </Shell>
  );
}

type SelectFieldProps = FieldShell &
  SelectHTMLAttributes<HTMLSelectElement> & { ref?: Ref<HTMLSelectElement> };

export function SelectField({ label, hint, invalid, errorId, children, ref, ...select }: SelectFieldProps) {
  const control = useControl(select.id, { label, hint, invalid, errorId });
  return (
    <Shell id={control.id} label={label} hint={hint}>
      <select {...select} ref={ref} {...control}>
        {children}
      </select>
    </Shell>
  );
}

/** The form's problems, each message once, read out as they appear. */
export function FormErrors({ id, messages }: { id: string; messages: Array<string | undefined> }) {
  const unique = [...new Set(messages.filter((m): m is string => Boolean(m)))];
  return (
    <div id={id} role="alert" className="form-error">
      {unique.map((m) => (
        <p key={m}>{m}</p>
      ))}
    </div>
  );
}
