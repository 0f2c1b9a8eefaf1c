import { useEffect } from 'react';
import { useDispatch } from 'react-redux';
import type { UserRecord } from '../../../../contract/users.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { profileReceived } from '../auth/auth.slice.ts';
import { loadProfile } from './profile.api.ts';
import { followProfileEvents } from './profile.events.ts';

/**
 * While mounted (the app mounts it for as long as a user is signed in), loads the user's record,
 * then keeps it current from the server's stream, so a change made in another tab shows here.
 */
export function ProfileSync(): null {
  const client = useApiClient();
  const dispatch = useDispatch();

  useEffect(() => {
    const stop = new AbortController();
    const received = (record: UserRecord) => dispatch(profileReceived(record));
    loadProfile(client, stop.signal).then(received, (error: unknown) => {
      if (!stop.signal.aborted) console.warn('The profile could not be loaded', error);
    });
    void followProfileEvents(client, received, stop.signal);
    return () => stop.abort();
  }, [client, dispatch]);

  return null;
}
