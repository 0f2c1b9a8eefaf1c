import {
  type HouseholdMember,
  HouseholdMembers,
  Shelf,
  type ShelfAccess,
  ShelfBooks,
  Shelves,
} from '../../../../contract/shelves.ts';
import { api, emptyCall, jsonCall } from '../../api/api.ts';

const shelfPath = (id: string) => `/api/shelves/${encodeURIComponent(id)}`;

/** Every change of a shelf or of its books makes every shelf list and page stale: a book moves between statuses. */
export const shelvesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The caller's shelves and those shared with them; with a book, whether each holds it. */
    shelves: build.query<Shelf[], string | null>({
      query: (book) => jsonCall(`/api/shelves${book === null ? '' : `?${new URLSearchParams({ book })}`}`, Shelves),
      providesTags: ['Shelves'],
    }),
    household: build.query<HouseholdMember[], void>({
      query: () => jsonCall('/api/shelves/household', HouseholdMembers),
    }),
    shelfBooks: build.query<ShelfBooks, { id: string; from: number; size: number }>({
      query: ({ id, from, size }) => jsonCall(`${shelfPath(id)}/books?${new URLSearchParams({ from: String(from), size: String(size) })}`, ShelfBooks),
      providesTags: ['Shelves'],
    }),
    createShelf: build.mutation<Shelf, string>({
      query: (name) => jsonCall('/api/shelves', Shelf, { method: 'POST', body: { name } }),
      invalidatesTags: ['Shelves'],
    }),
    renameShelf: build.mutation<Shelf, { id: string; name: string }>({
      query: ({ id, name }) => jsonCall(shelfPath(id), Shelf, { method: 'PATCH', body: { name } }),
      invalidatesTags: ['Shelves'],
    }),
    deleteShelf: build.mutation<null, string>({
      query: (id) => emptyCall(shelfPath(id), { method: 'DELETE' }),
      invalidatesTags: ['Shelves'],
    }),
    shareShelf: build.mutation<Shelf, { id: string; members: Array<{ user_id: string; access: ShelfAccess }> }>({
      query: ({ id, members }) => jsonCall(`${shelfPath(id)}/members`, Shelf, { method: 'PUT', body: { members } }),
      invalidatesTags: ['Shelves'],
    }),
    /** Puts a book on a shelf (`on`) or takes it off. */
    shelveBook: build.mutation<Shelf, { id: string; bookId: string; on: boolean }>({
      query: ({ id, bookId, on }) => jsonCall(`${shelfPath(id)}/books/${encodeURIComponent(bookId)}`, Shelf, { method: on ? 'PUT' : 'DELETE' }),
      invalidatesTags: ['Shelves'],
    }),
  }),
});

export const {
  useShelvesQuery,
  useHouseholdQuery,
  useShelfBooksQuery,
  useCreateShelfMutation,
  useRenameShelfMutation,
  useDeleteShelfMutation,
  useShareShelfMutation,
  useShelveBookMutation,
} = shelvesApi;
