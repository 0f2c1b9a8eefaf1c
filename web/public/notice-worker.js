// The installed app's service worker: it shows a task's push notice (docs/behaviour/tasks-and-notices.md)
// with a Done action, which completes that occurrence through the notice's single-use link, and
// opens the task on a click. It handles no fetch: the app loads as it does without it.

/** What to show when Done was refused: the link's answer, in words. */
const REFUSALS = {
  404: 'The task is gone.',
  409: 'The task has moved on since this notice: nothing was changed.',
  410: 'This Done was already used, or it is more than a week old.',
};

// The app's open windows come under the worker at once, so that a click on a notice can lead one of them to the task.
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  if (!event.data) return;
  const notice = event.data.json();
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      tag: notice.tag,
      data: { url: notice.url, doneUrl: notice.done_url },
      actions: [{ action: 'done', title: 'Done' }],
    }),
  );
});

async function markDone(notification) {
  let response;
  try {
    response = await fetch(notification.data.doneUrl, { method: 'POST', credentials: 'omit' });
  } catch {
    response = null;
  }
  if (response && response.ok) return;
  const why = (response && REFUSALS[response.status]) || 'The server could not be reached; open the task to complete it.';
  await self.registration.showNotification(`Not done: ${notification.title}`, {
    body: why,
    tag: notification.tag,
    data: { url: notification.data.url },
  });
}

/** Focuses a window of the app on the task, or opens one. */
async function openTask(url) {
  const windows = await self.clients.matchAll({ type: 'window' });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (!open) return self.clients.openWindow(url);
  // Focus is the browser's to allow; the window goes to the task either way.
  await open.focus().catch(() => undefined);
  return open.navigate(url);
}

self.addEventListener('notificationclick', (event) => {
  const notification = event.notification;
  notification.close();
  if (event.action === 'done') event.waitUntil(markDone(notification));
  else if (notification.data && notification.data.url) event.waitUntil(openTask(notification.data.url));
});
