import http from 'node:http';
import { multipart } from './multipart.ts';

/**
 * An upload (an index file by default) over a real connection whose last bytes are held back until `finish` (or the
 * request is destroyed by `abort`): a load caught in its receiving phase.
 */
export function heldUpload(port: number, token: string, file: Buffer, mode: string | null, path = '/api/books/index') {
  const body = multipart([...(mode === null ? [] : [['name', mode] as [string, string]]), ['file', file, 'index']]);
  const request = http.request({
    port,
    host: '127.0.0.1',
    method: 'POST',
    path,
    headers: { ...body.headers, authorization: `Bearer ${token}`, 'content-length': String(body.payload.length) },
  });
  const reply = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
  });
  reply.catch(() => {});
  const held = 1000;
  request.write(body.payload.subarray(0, body.payload.length - held));
  return {
    reply,
    size: body.payload.length,
    finish: () => request.end(body.payload.subarray(body.payload.length - held)),
    abort: () => request.destroy(),
  };
}
