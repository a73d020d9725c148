import { useEffect, useRef, type ReactNode } from 'react';
import './auth.css';

interface ModalProps {
  title: string;
  /** Close (×), Escape: the caller decides what closing means. */
  onClose: () => void;
  children: ReactNode;
  testId?: string;
  describedBy?: string;
}

let nextId = 0;

/**
 * A modal dialog on the native <dialog>: showModal() keeps focus inside and makes the page behind
 * inert; Escape and the close button both call onClose. Focus returns to where it was.
 */
export function Modal({ title, onClose, children, testId, describedBy }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useRef(`modal-title-${++nextId}`).current;
  useEffect(() => {
    const dialog = ref.current;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      previous?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      <button type="button" className="modal__close" aria-label="Close" onClick={onClose}>
        <span aria-hidden="true">×</span>
      </button>
      {children}
    </dialog>
  );
}
