import { useLayoutEffect } from 'react';
import { useDispatch } from 'react-redux';
import { useLocation } from 'react-router';
import { screenChanged } from '../lib/screen-changed.ts';

/**
 * Tells the slices when the screen changes (another path, or the first render after a reload). A
 * layout effect, so that the screen entered never paints the error of the one left.
 */
export function useScreenChanges(): void {
  const { pathname } = useLocation();
  const dispatch = useDispatch();
  useLayoutEffect(() => {
    dispatch(screenChanged());
  }, [dispatch, pathname]);
}
