import Button from 'react-bootstrap/Button';
import { useBack } from '../lib/history.ts';

/** 'Back': to the app's page before, or to `list` when this page was opened from outside. */
export function BackButton({ list }: { list: string }) {
  const back = useBack(list);
  return (
    <Button variant="outline-secondary" onClick={back}>
      Back
    </Button>
  );
}
