import { useSelector } from 'react-redux';
import { Link } from 'react-router';
import { selectAuth } from '../auth/auth.slice.ts';
import { displayZone } from './task-time.ts';

/** Says which zone the page's times are typed and shown in, and where to change it. */
export function TaskZoneNote() {
  const auth = useSelector(selectAuth);
  const profileZone = auth.authenticated ? auth.timezone : null;
  return (
    <p className="small text-muted mb-3" id="task-zone">
      {`Times are in ${displayZone(profileZone)}, `}
      {profileZone === null ? "this browser's timezone " : 'the timezone of your profile '}
      <Link to="/profile">(change)</Link>
    </p>
  );
}
