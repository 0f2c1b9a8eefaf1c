import { PushSubscriptionBody } from '../../../../contract/notify.ts';
import { NOTICE_WORKER } from '../../lib/notice-worker.ts';

/** Whether this browser can get push notices: service workers, the Push API and notifications, on a secure origin. */
export const pushSupported = () => window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** This browser's push subscription, if it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration(NOTICE_WORKER);
  return registration ? registration.pushManager.getSubscription() : null;
}

function sameKey(kept: ArrayBuffer | null, key: Uint8Array): boolean {
  if (kept === null || kept.byteLength !== key.length) return false;
  const bytes = new Uint8Array(kept);
  return key.every((byte, i) => bytes[i] === byte);
}

/**
 * Asks for permission to notify, then subscribes this browser with the server's VAPID key; a
 * subscription the browser already has for that key is the one sent again.
 */
export async function subscribeThisDevice(vapidPublicKey: string): Promise<PushSubscriptionBody> {
  if ((await Notification.requestPermission()) !== 'granted') {
    throw new Error('Notifications are blocked for this site: allow them in the browser’s site settings first');
  }
  await navigator.serviceWorker.register(NOTICE_WORKER);
  const registration = await navigator.serviceWorker.ready;
  const key = Uint8Array.from(atob(vapidPublicKey.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));
  const existing = await registration.pushManager.getSubscription();
  if (existing !== null && sameKey(existing.options.applicationServerKey, key)) return PushSubscriptionBody.parse(existing.toJSON());
  // One made for another key (a database started afresh) goes: a browser keeps one subscription per worker.
  await existing?.unsubscribe();
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  return PushSubscriptionBody.parse(subscription.toJSON());
}
