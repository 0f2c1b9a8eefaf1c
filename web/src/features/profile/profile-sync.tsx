import { useEffect } from 'react';
import { useDispatch } from 'react-redux';
import { profileReceived } from '../auth/auth.slice.ts';
import { useProfileQuery } from './profile.api.ts';

/**
 * While mounted (the app mounts it for as long as a user is signed in), loads the user's record,
 * which the cache then keeps current from the server's stream, so a change made in another tab shows here.
 */
export function ProfileSync(): null {
  const dispatch = useDispatch();
  const { data: record, error } = useProfileQuery();

  useEffect(() => {
    if (record !== undefined) dispatch(profileReceived(record));
  }, [record, dispatch]);

  useEffect(() => {
    if (error !== undefined) console.warn('The profile could not be loaded', error);
  }, [error]);

  return null;
}
