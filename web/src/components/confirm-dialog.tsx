import { useId } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

/**
 * Asks before something that cannot be undone: `confirm` names the action ("Delete"), Cancel
 * closes the dialog; both are disabled while the action runs.
 */
export function ConfirmDialog({
  show,
  title,
  body,
  confirm,
  busy = false,
  onConfirm,
  onCancel,
}: {
  show: boolean;
  title: string;
  body: string;
  confirm: string;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const titleId = useId();
  return (
    <Modal show={show} onHide={onCancel} centered aria-labelledby={titleId}>
      <Modal.Header closeButton>
        <Modal.Title className="h5" id={titleId}>
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{body}</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={busy}>
          {confirm}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
