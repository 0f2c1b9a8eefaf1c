import { Readable } from 'node:stream';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../errors.ts';

/** The one file part's name, on every upload route. */
const FILE_FIELD = 'file';
/** A text field of an upload is a word such as `replace`; anything longer is not one of ours. */
const MAX_FIELD_BYTES = 1024;

export type UploadSpec<Fields extends Record<string, z.ZodType>> = {
  /** What the file is, for messages: "index file", "bookmarks file". */
  what: string;
  /** The text fields, each required, each sent once, all before the file. */
  fields: Fields;
  maxFileMb: number;
  /** Names the setting that raises the limit, when there is one. */
  limitName?: string;
};

export type Upload<Fields extends Record<string, z.ZodType>> = {
  fields: { [Name in keyof Fields]: z.infer<Fields[Name]> };
  /**
   * The file's bytes as they arrive. It ends only once the rest of the body is known to hold no
   * other part, so a reader that takes it to its end has checked the whole upload; a truncated,
   * oversize or malformed body makes it fail with the 4xx to answer.
   */
  file: Readable;
};

/** An upload's file read to its end, kept as the chunks that arrived rather than copied into one buffer. */
export async function fileChunks(file: Readable, onBytes: (bytes: number) => void = () => {}): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of file) {
    chunks.push(chunk as Buffer);
    onBytes((chunk as Buffer).length);
  }
  return chunks;
}

/** busboy's own errors (no boundary, a body cut short, a bad part header) carry no status. */
function asHttpError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const statusCode = (error as { statusCode?: unknown }).statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) return error;
  return new AppError(400, `The upload is not well-formed multipart/form-data: ${(error as Error).message}`);
}

async function nextPart(parts: AsyncIterator<Multipart>): Promise<Multipart | undefined> {
  try {
    const next = await parts.next();
    return next.done ? undefined : next.value;
  } catch (error) {
    throw asHttpError(error);
  }
}

/**
 * Reads an upload's fields, then hands over its file as a stream: a multipart body is read in
 * order, and the file is never held whole, so every field must come before it. Unknown or
 * repeated fields, a field after the file, and a second file are refused with a 400 rather than
 * ignored, so that a mistyped command never does something other than what it says.
 */
export async function readUpload<Fields extends Record<string, z.ZodType>>(
  request: FastifyRequest,
  spec: UploadSpec<Fields>,
): Promise<Upload<Fields>> {
  if (!request.isMultipart()) throw new AppError(400, `Send the ${spec.what} as multipart/form-data`);
  const names = Object.keys(spec.fields);
  // The limits sit one above what is accepted, so that the first part too many reaches the
  // checks below and gets their 400 rather than the multipart plugin's 413.
  const parts = request.parts({
    limits: {
      fileSize: spec.maxFileMb * 1024 * 1024,
      fieldSize: MAX_FIELD_BYTES,
      fields: names.length + 1,
      files: 2,
      parts: names.length + 2,
    },
  })[Symbol.asyncIterator]();
  const values: Record<string, unknown> = {};

  const refuseField = (name: string) =>
    new AppError(
      400,
      !names.includes(name)
        ? `Unknown field "${name}"${names.length ? `: the fields are ${names.map((known) => `"${known}"`).join(', ')} and "file"` : ': send only "file"'}`
        : name in values
          ? `The field "${name}" is sent twice`
          : `The field "${name}" comes after the file: send it before`,
    );

  for (let part = await nextPart(parts); part; part = await nextPart(parts)) {
    if (part.type === 'field') {
      if (!names.includes(part.fieldname) || part.fieldname in values) throw refuseField(part.fieldname);
      if (part.valueTruncated) throw new AppError(400, `${part.fieldname}: must be at most ${MAX_FIELD_BYTES} bytes`);
      const parsed = spec.fields[part.fieldname]!.safeParse(part.value);
      if (!parsed.success) throw new AppError(400, parsed.error.issues[0]?.message ?? `${part.fieldname} is not valid`);
      values[part.fieldname] = parsed.data;
      continue;
    }
    if (part.fieldname !== FILE_FIELD) throw new AppError(400, `Unknown file field "${part.fieldname}": send the ${spec.what} in the field "file"`);
    const missing = names.find((name) => !(name in values));
    if (missing) throw new AppError(400, `Send the field "${missing}" before the file`);
    return { fields: values as Upload<Fields>['fields'], file: Readable.from(wholeFile(part, parts, spec, refuseField), { objectMode: false }) };
  }
  throw new AppError(400, `No ${spec.what}: send it in the field "file"`);
}

async function* wholeFile(
  part: MultipartFile,
  parts: AsyncIterator<Multipart>,
  spec: UploadSpec<Record<string, z.ZodType>>,
  refuseField: (name: string) => AppError,
): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of part.file) yield chunk as Buffer;
  } catch (error) {
    throw asHttpError(error);
  }
  // The size limit cuts the file short and marks it: a 413 before a parser takes the short file for a corrupt one.
  if (part.file.truncated) {
    const limit = spec.limitName ? `${spec.limitName} (${spec.maxFileMb} MB)` : `${spec.maxFileMb} MB`;
    throw new AppError(413, `The ${spec.what} is larger than ${limit}`);
  }
  const extra = await nextPart(parts);
  if (extra?.type === 'file') throw new AppError(400, `Send one file only (a second file part "${extra.fieldname}" follows the first)`);
  if (extra) throw refuseField(extra.fieldname);
}
