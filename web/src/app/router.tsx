import { lazy, type ComponentType } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { DEFAULT_PAGE } from '../features/auth/requested-page.ts';
import { titled } from './document-title.tsx';
import { Layout } from './layout.tsx';
import { RequireAdmin } from './require-admin.tsx';
import { RequireAuth } from './require-auth.tsx';

/** A page whose code loads when it is first shown, keeping the start-up script small. */
function lazyPage<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const BookSearchPage = lazyPage(() => import('../features/books/book-search-page.tsx'), 'BookSearchPage');
const BookDetailPage = lazyPage(() => import('../features/books/book-detail-page.tsx'), 'BookDetailPage');
const BookFacetPage = lazyPage(() => import('../features/books/book-facet-page.tsx'), 'BookFacetPage');
const BookShelfPage = lazyPage(() => import('../features/books/book-shelf-page.tsx'), 'BookShelfPage');
const ShelvesPage = lazyPage(() => import('../features/shelves/shelves-page.tsx'), 'ShelvesPage');
const ShelfPage = lazyPage(() => import('../features/shelves/shelf-page.tsx'), 'ShelfPage');
const ReaderPage = lazyPage(() => import('../features/reader/reader-page.tsx'), 'ReaderPage');
const TaskListPage = lazyPage(() => import('../features/tasks/task-list-page.tsx'), 'TaskListPage');
const TaskCreatePage = lazyPage(() => import('../features/tasks/task-create-page.tsx'), 'TaskCreatePage');
const TaskListsPage = lazyPage(() => import('../features/tasks/task-lists-page.tsx'), 'TaskListsPage');
const TaskDetailPage = lazyPage(() => import('../features/tasks/task-detail-page.tsx'), 'TaskDetailPage');
const BookmarkListPage = lazyPage(() => import('../features/bookmarks/bookmark-list-page.tsx'), 'BookmarkListPage');
const BookmarkCreatePage = lazyPage(
  () => import('../features/bookmarks/bookmark-create-page.tsx'),
  'BookmarkCreatePage',
);
const BookmarkTagsPage = lazyPage(() => import('../features/bookmarks/bookmark-tags-page.tsx'), 'BookmarkTagsPage');
const BookmarkQueryPage = lazyPage(() => import('../features/bookmarks/bookmark-query-page.tsx'), 'BookmarkQueryPage');
const BookmarkDetailPage = lazyPage(
  () => import('../features/bookmarks/bookmark-detail-page.tsx'),
  'BookmarkDetailPage',
);
const ReaderView = lazyPage(() => import('../features/bookmarks/reader-view.tsx'), 'ReaderView');
const LoginPage = lazyPage(() => import('../features/auth/login-page.tsx'), 'LoginPage');
const LogoutPage = lazyPage(() => import('../features/auth/logout-page.tsx'), 'LogoutPage');
const ProfilePage = lazyPage(() => import('../features/profile/profile-page.tsx'), 'ProfilePage');
const ForgotPasswordPage = lazyPage(() => import('../features/auth/forgot-password-page.tsx'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyPage(() => import('../features/auth/reset-password-page.tsx'), 'ResetPasswordPage');
const JoinPage = lazyPage(() => import('../features/auth/join-page.tsx'), 'JoinPage');
const AdminPage = lazyPage(() => import('../features/admin/admin-page.tsx'), 'AdminPage');

export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { path: 'login', element: <LoginPage />, handle: titled('Log in') },
      { path: 'logout', element: <LogoutPage />, handle: titled('Log out') },
      { path: 'forgot-password', element: <ForgotPasswordPage />, handle: titled('Forgot your password?') },
      { path: 'reset-password', element: <ResetPasswordPage />, handle: titled('Choose a new password') },
      { path: 'join', element: <JoinPage />, handle: titled('Create your account') },
      {
        element: <RequireAuth />,
        children: [
          { index: true, element: <BookSearchPage />, handle: titled('Books') },
          { path: 'book', element: <BookSearchPage />, handle: titled('Books') },
          { path: 'book/:id', element: <BookDetailPage />, handle: titled('Book') },
          { path: 'book/:id/read/:format', element: <ReaderPage />, handle: titled('Reading') },
          { path: 'book/browse/:facet', element: <BookFacetPage />, handle: titled('Browse books') },
          { path: 'book/browse/:facet/:value', element: <BookShelfPage />, handle: titled('Books') },
          { path: 'shelf', element: <ShelvesPage />, handle: titled('Shelves') },
          { path: 'shelf/:id', element: <ShelfPage />, handle: titled('Shelf') },
          { path: 'task', element: <TaskListPage />, handle: titled('Tasks') },
          { path: 'task/create', element: <TaskCreatePage />, handle: titled('New task') },
          { path: 'task/lists', element: <TaskListsPage />, handle: titled('Lists') },
          { path: 'task/:id', element: <TaskDetailPage />, handle: titled('Task') },
          { path: 'bookmark', element: <BookmarkListPage />, handle: titled('Bookmarks') },
          { path: 'bookmark/create', element: <BookmarkCreatePage />, handle: titled('New bookmark') },
          { path: 'bookmark/query', element: <BookmarkQueryPage />, handle: titled('Bookmark search') },
          { path: 'bookmark/tags', element: <BookmarkTagsPage />, handle: titled('Bookmark tags') },
          { path: 'bookmark/:id', element: <BookmarkDetailPage />, handle: titled('Bookmark') },
          { path: 'bookmark/:id/read', element: <ReaderView />, handle: titled('Reading') },
          { path: 'profile', element: <ProfilePage />, handle: titled('Profile') },
          { element: <RequireAdmin />, children: [{ path: 'admin', element: <AdminPage />, handle: titled('Administration') }] },
        ],
      },
      { path: '*', element: <Navigate to={DEFAULT_PAGE} replace /> },
    ],
  },
]);
