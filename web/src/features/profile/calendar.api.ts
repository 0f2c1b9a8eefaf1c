import { CalendarStatus, CalendarSubscription } from '../../../../contract/calendar.ts';
import { api, emptyCall, jsonCall } from '../../api/api.ts';

const calendarStatusApi = api.injectEndpoints({
  endpoints: (build) => ({
    calendarStatus: build.query<CalendarStatus, void>({
      query: () => jsonCall('/api/users/me/calendar', CalendarStatus),
      providesTags: ['Calendar'],
    }),
  }),
});

/** The status a change leaves, written into the cache as it is known: loaded again, it would flash the one before. */
const statusAfter = (status: CalendarStatus) => calendarStatusApi.util.updateQueryData('calendarStatus', undefined, () => status);

export const calendarApi = calendarStatusApi.injectEndpoints({
  endpoints: (build) => ({
    /** A new private address for the calendar feed; the one before stops working. */
    makeCalendarAddress: build.mutation<CalendarSubscription, void>({
      query: () => jsonCall('/api/users/me/calendar', CalendarSubscription, { method: 'POST' }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        await queryFulfilled;
        dispatch(statusAfter({ enabled: true, created_at: new Date().toISOString() }));
      },
    }),
    turnCalendarOff: build.mutation<null, void>({
      query: () => emptyCall('/api/users/me/calendar', { method: 'DELETE' }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        await queryFulfilled;
        dispatch(statusAfter({ enabled: false, created_at: null }));
      },
    }),
  }),
});

export const { useCalendarStatusQuery, useMakeCalendarAddressMutation, useTurnCalendarOffMutation } = calendarApi;
