/**
 * A modal dialog on the native <dialog>: focus is trapped by the browser and Esc closes it. It opens with
 * focus on the child marked `data-autofocus` (a safe action), not on whatever comes first, such as a Copy
 * link in the text.
 */
import { useEffect, useRef, type ReactNode } from 'react';

export function Dialog(props: { title: string; open: boolean; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-label={props.title}
      onCancel={(event) => {
        event.preventDefault();
        props.onClose();
      }}
    >
      <h2>{props.title}</h2>
      {props.open ? props.children : null}
    </dialog>
  );
}
