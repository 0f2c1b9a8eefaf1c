import { parse as parseContentDisposition } from 'content-disposition';
import type { HttpClient } from '../api/http-client.ts';

/** The name the server gives the download, else `fallback`. */
function savedName(response: Response, fallback: string): string {
  const header = response.headers.get('content-disposition');
  try {
    return (header && parseContentDisposition(header).parameters.filename) || fallback;
  } catch {
    return fallback;
  }
}

/**
 * Fetches `path` through the client (a link cannot send the bearer token) and hands the file to
 * the browser to save, under the name the server gives it.
 */
export async function saveDownload(client: HttpClient, path: string, fallbackName: string): Promise<void> {
  const response = await client.stream(path);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = savedName(response, fallbackName);
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has begun the download from the URL by the time the click returns; a minute is ample.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
