import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** A file to save rather than show: its type and the name a browser saves it under. */
export type AttachmentFile = { readonly type: string; readonly name: string };

/** Streams `body` as that file. */
export const sendAttachment = (reply: FastifyReply, file: AttachmentFile, body: AsyncIterable<string>) =>
  reply.header('content-type', file.type).header('content-disposition', `attachment; filename="${file.name}"`).send(Readable.from(body));
