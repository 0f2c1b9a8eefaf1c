import { createAction } from '@reduxjs/toolkit';

/**
 * The user went to another screen, or loaded the app afresh. An operation error belongs to the
 * screen whose call failed (issue 12), so each slice that keeps one forgets it on this action.
 */
export const screenChanged = createAction('screen/changed');
