/**
 * A form's one message line ("Saved.", a validation or service error). It is always in the page and only its
 * text changes, so screen readers announce each new message; fields point at it with aria-describedby.
 */
export function FormMessage(props: { id: string; error?: string | null; success?: string | null }) {
  const text = props.error || props.success || '';
  return (
    <p
      id={props.id}
      role="status"
      className={`form-message ${props.error ? 'error-text' : props.success ? 'ok-text' : ''}`}
    >
      {text}
    </p>
  );
}

/** What a field carries when the form's message is about it. */
export function invalidProps(messageId: string, invalid: boolean) {
  return invalid ? { 'aria-invalid': true as const, 'aria-describedby': messageId } : {};
}
