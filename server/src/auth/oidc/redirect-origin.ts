import type { Config } from '../../config.ts';

/** Listening on every interface names no address a browser could be sent back to. */
const EVERY_INTERFACE = new Set(['0.0.0.0', '::', '[::]']);

/**
 * Where the provider sends the popup back: PUBLIC_URL, else the address the server listens on
 * when that is one address (HOST=127.0.0.1 on a desktop). Never a request's Host header, which
 * the browser's peer chooses; null when neither is known, and provider sign-in is then off.
 */
export function signInRedirectOrigin(config: Pick<Config, 'publicUrl' | 'host' | 'port'>): string | null {
  if (config.publicUrl) return config.publicUrl;
  if (EVERY_INTERFACE.has(config.host)) return null;
  const host = config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}
