import { DomainError } from '@eelarve/shared';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';

/**
 * Caps on what one upload may cost (issue 8, finding 7). Spec 3 gives attachments 10485760 bytes;
 * the spec names no byte limit for import spreadsheets (.xlsx, .csv), so they get the same upload
 * cap, a cap on what they expand to, and the row cap of the item import (100,000 rows, the
 * contract's `items` maximum).
 */
export const UPLOAD_LIMITS = {
  /** Spec 3, comments: each attachment at most 10485760 bytes. */
  attachmentBytes: 10 * 1024 * 1024,
  /** An import file as uploaded (a 100,000-row CSV or workbook stays well below it). */
  spreadsheetBytes: 10 * 1024 * 1024,
  /** Everything an .xlsx holds, uncompressed: sheets, shared strings, styles together. */
  spreadsheetUncompressedBytes: 64 * 1024 * 1024,
  /** Files inside an .xlsx; a workbook has a dozen or so. */
  spreadsheetEntries: 1_000,
  /** Uncompressed / compressed for entries above `ratioCheckFromBytes`; sheet XML compresses about 10-20 times. */
  spreadsheetCompressionRatio: 200,
  ratioCheckFromBytes: 1024 * 1024,
  /** Data rows of one import file. */
  importRows: 100_000,
} as const;

/**
 * Multipart caps for every route (app.ts registration): one file of at most an attachment's size,
 * a few fields and parts, so a request with 1,000 parts or a 200 MB body is refused while it is
 * read. A route may lower them (see `readSingleFile`).
 */
export const MULTIPART_LIMITS = {
  fileSize: UPLOAD_LIMITS.attachmentBytes,
  files: 1,
  fields: 10,
  fieldSize: 64 * 1024,
  parts: 12,
  headerPairs: 100,
} as const;

function tooManyParts(): DomainError {
  return new DomainError('TOO_MANY_PARTS', `a request may carry one file and at most ${MULTIPART_LIMITS.fields} fields`, {
    maxFiles: MULTIPART_LIMITS.files,
    maxFields: MULTIPART_LIMITS.fields,
    maxParts: MULTIPART_LIMITS.parts,
  });
}

/** @fastify/multipart's limit errors, and the catalogued answers they get. */
function uploadError(error: unknown, maxBytes: number): unknown {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return fileTooLarge(maxBytes);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') return tooManyParts();
  return error;
}

export function fileTooLarge(maxBytes: number): DomainError {
  return new DomainError('FILE_TOO_LARGE', `the file is larger than ${maxBytes} bytes`, { maxBytes, maxMegabytes: Math.floor(maxBytes / 1_048_576) });
}

export interface UploadedFile {
  filename: string;
  mimetype: string;
  buffer: Buffer;
}

/** A file part's bytes; busboy stops at `maxBytes` and marks the stream truncated. */
async function fileBytes(part: MultipartFile, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of part.file as AsyncIterable<Buffer>) chunks.push(chunk);
  if (part.file.truncated) throw fileTooLarge(maxBytes);
  return Buffer.concat(chunks);
}

/**
 * The one file of a multipart request, read into memory only up to `maxBytes` (FILE_TOO_LARGE
 * beyond). Parts are counted as they arrive, so a second file or more fields than the caps allow
 * answer TOO_MANY_PARTS without reading the rest of the request.
 */
export async function readSingleFile(request: FastifyRequest, maxBytes: number): Promise<UploadedFile> {
  let file: UploadedFile | undefined;
  let fields = 0;
  try {
    for await (const part of request.parts({ limits: { ...MULTIPART_LIMITS, fileSize: maxBytes } })) {
      if (part.type === 'file') {
        if (file) throw tooManyParts();
        file = { filename: part.filename, mimetype: part.mimetype, buffer: await fileBytes(part, maxBytes) };
      } else if (++fields > MULTIPART_LIMITS.fields) {
        throw tooManyParts();
      }
    }
  } catch (error) {
    throw uploadError(error, maxBytes);
  }
  if (!file) throw new DomainError('MULTIPART_FORM_ERROR', 'a file is required');
  return file;
}
