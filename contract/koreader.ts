import { z } from 'zod';

/**
 * KOReader's progress sync, as koreader-sync-server defines it (issue 38; docs/behaviour/reading.md).
 * Its fields are snake_case and its errors `{code, message}`: they are the protocol's, not ours.
 */

/** A document id: KOReader's MD5 of the file or of its name; the protocol takes any text without a colon. */
export const KoreaderDocument = z
  .string()
  .min(1, 'must not be empty')
  .max(1000, 'must be at most 1000 characters')
  .refine((document) => !document.includes(':'), 'must not hold a colon');

/** `PUT /kosync/syncs/progress`. Unknown fields (`metadata`, which KOReader may send) are ignored. */
export const KoreaderProgressBody = z.object({
  document: KoreaderDocument,
  /** KOReader's place: an XPointer into a reflowed document, or a page number. */
  progress: z.string().max(10_000, 'must be at most 10000 characters'),
  percentage: z.number().min(0, 'must be 0 to 1').max(1, 'must be 0 to 1'),
  device: z.string().max(200, 'must be at most 200 characters'),
  device_id: z.string().max(200, 'must be at most 200 characters').nullish(),
});
export type KoreaderProgressBody = z.infer<typeof KoreaderProgressBody>;

export const KoreaderDocumentParams = z.strictObject({ document: KoreaderDocument });

export const KoreaderProgressSaved = z.object({
  document: z.string(),
  /** Seconds since 1970, the server's time of the save. */
  timestamp: z.number().int(),
});

/** `GET /kosync/syncs/progress/{document}`: every field, or none (`{}`) for a document without progress. */
export const KoreaderProgressReply = z.object({
  document: z.string().optional(),
  percentage: z.number().optional(),
  progress: z.string().optional(),
  device: z.string().optional(),
  device_id: z.string().optional(),
  timestamp: z.number().int().optional(),
});
export type KoreaderProgressReply = z.infer<typeof KoreaderProgressReply>;

/** `POST /kosync/users/create`, which this server refuses: its accounts are made in Organiser. */
export const KoreaderRegistration = z.object({ username: z.string().optional(), password: z.string().optional() });

export const KoreaderAuthorized = z.object({ authorized: z.literal('OK') });
export const KoreaderHealth = z.object({ state: z.literal('OK') });

/** Every error of the protocol: a number of its own and its message. */
export const KoreaderError = z.object({ code: z.number().int(), message: z.string() });
export type KoreaderError = z.infer<typeof KoreaderError>;

/** The protocol's errors (koreader-sync-server's and its framework's), by their code. */
export const KOREADER_ERRORS = {
  acceptMissing: { code: 100, status: 412, message: 'Accept header not set.' },
  acceptInvalid: { code: 101, status: 412, message: 'Invalid Accept header format.' },
  acceptVersion: { code: 102, status: 412, message: 'Unsupported version specified in the Accept header.' },
  bodyNotJson: { code: 103, status: 400, message: 'Could not parse JSON in body.' },
  bodyNotObject: { code: 104, status: 400, message: 'Body should be a JSON hash.' },
  unknown: { code: 2000, status: 502, message: 'Unknown server error.' },
  unauthorized: { code: 2001, status: 401, message: 'Unauthorized' },
  invalidFields: { code: 2003, status: 403, message: 'Invalid request' },
  documentMissing: { code: 2004, status: 403, message: "Field 'document' not provided." },
  registrationDisabled: { code: 2005, status: 402, message: 'User registration is disabled.' },
} as const;
