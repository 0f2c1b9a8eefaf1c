/** The installed app's service worker (web/public/notice-worker.js): it shows push notices and their Done. */
export const NOTICE_WORKER = '/notice-worker.js';

/**
 * Registers the worker, as the app starts, so that a push subscription made on this device keeps
 * working and the browser keeps the worker up to date. A browser without service workers, or one
 * that refuses them (an http origin, some private modes), simply gets no push notices.
 */
export function registerNoticeWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register(NOTICE_WORKER).catch(() => undefined);
}
