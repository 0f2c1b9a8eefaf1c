import { useSelector } from 'react-redux';
import { selectAuth } from '../auth/auth.slice.ts';
import { displayZone } from './task-time.ts';

/** The zone task times show and are typed in: the profile's timezone. */
export function useTaskZone(): string {
  const auth = useSelector(selectAuth);
  return displayZone(auth.authenticated ? auth.timezone : null);
}
