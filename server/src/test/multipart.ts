/** A multipart body as a browser's FormData sends it. */
export function multipart(fields: Array<[name: string, value: string | Buffer, filename?: string]>) {
  const boundary = `----organiser${Math.random().toString(16).slice(2)}`;
  const parts = fields.map(([name, value, filename]) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n` +
          (filename ? 'Content-Type: application/octet-stream\r\n' : '') +
          '\r\n',
      ),
      Buffer.isBuffer(value) ? value : Buffer.from(value),
      Buffer.from('\r\n'),
    ]),
  );
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
