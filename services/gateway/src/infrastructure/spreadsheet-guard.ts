import { crc32 } from 'node:zlib';
import { DomainError } from '@eelarve/shared';
import yauzl from 'yauzl';
import { UPLOAD_LIMITS } from './upload-limits';

/**
 * An .xlsx is a zip archive, and a few KB of deflated XML can expand to gigabytes (a zip bomb).
 * Before a parser sees one, `boundedWorkbook`:
 * 1. reads the central directory (yauzl: a well-kept zip reader that never inflates on its own)
 *    and refuses too many entries, a declared uncompressed total above the cap, or an entry that
 *    claims a bomb-like compression ratio;
 * 2. inflates every entry itself, counting bytes as they come (yauzl also stops an entry that
 *    inflates past its declared size), so a lying central directory is caught after at most the
 *    cap, never read to its end;
 * 3. hands back a fresh archive of exactly those entries, stored uncompressed. The parser (exceljs,
 *    which reads local headers in order and would otherwise meet entries the directory hides)
 *    therefore reads only bytes that were counted here.
 */
export interface SpreadsheetLimits {
  uncompressedBytes: number;
  entries: number;
  compressionRatio: number;
  ratioCheckFromBytes: number;
}

const DEFAULT_LIMITS: SpreadsheetLimits = {
  uncompressedBytes: UPLOAD_LIMITS.spreadsheetUncompressedBytes,
  entries: UPLOAD_LIMITS.spreadsheetEntries,
  compressionRatio: UPLOAD_LIMITS.spreadsheetCompressionRatio,
  ratioCheckFromBytes: UPLOAD_LIMITS.ratioCheckFromBytes,
};

interface InflatedEntry {
  name: string;
  data: Buffer;
}

function tooLarge(reason: 'entries' | 'uncompressedSize' | 'compressionRatio', limits: SpreadsheetLimits): DomainError {
  return new DomainError('SPREADSHEET_TOO_LARGE', `the workbook expands beyond the limits (${reason})`, {
    reason,
    maxUncompressedBytes: limits.uncompressedBytes,
    maxEntries: limits.entries,
  });
}

const unreadable = () =>
  new DomainError('SCHEMA_VALIDATION_ERROR', 'the file is not a readable .xlsx workbook', [{ path: 'file', message: 'validation.fileUnreadable' }]);

function checkDeclared(entry: yauzl.Entry, declaredSoFar: number, limits: SpreadsheetLimits): void {
  if (declaredSoFar + entry.uncompressedSize > limits.uncompressedBytes) throw tooLarge('uncompressedSize', limits);
  const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
  if (entry.uncompressedSize >= limits.ratioCheckFromBytes && ratio > limits.compressionRatio) throw tooLarge('compressionRatio', limits);
}

/** Inflates one entry, giving up as soon as the running total passes the cap. */
async function inflate(zip: yauzl.ZipFile, entry: yauzl.Entry, budget: number, limits: SpreadsheetLimits): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > budget) throw tooLarge('uncompressedSize', limits);
      chunks.push(chunk);
    }
  } catch (error) {
    // yauzl: "too many bytes in the stream" when an entry inflates past what the directory declared.
    if (error instanceof DomainError) throw error;
    throw /too many bytes/.test(String((error as Error).message)) ? tooLarge('uncompressedSize', limits) : unreadable();
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, size);
}

async function inflateAll(buffer: Buffer, limits: SpreadsheetLimits): Promise<InflatedEntry[]> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(buffer, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false });
  } catch {
    throw unreadable();
  }
  try {
    if (zip.entryCount > limits.entries) throw tooLarge('entries', limits);
    const entries: InflatedEntry[] = [];
    let declared = 0;
    let inflated = 0;
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/')) continue;
      checkDeclared(entry, declared, limits);
      declared += entry.uncompressedSize;
      const data = await inflate(zip, entry, limits.uncompressedBytes - inflated, limits);
      inflated += data.length;
      entries.push({ name: entry.fileName, data });
    }
    return entries;
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw unreadable();
  } finally {
    zip.close();
  }
}

/** A zip of stored (uncompressed) entries: local headers, data, central directory, end record. */
function storedZip(entries: InflatedEntry[]): Buffer {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const fileName = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // date: 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // version made by
    local.copy(central, 6, 4, 30); // version needed .. name length, as in the local header
    central.writeUInt32LE(offset, 42);
    parts.push(local, fileName, data);
    directory.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directorySize = directory.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...directory, end]);
}

/**
 * The workbook's entries re-packed uncompressed after the checks above; throws
 * SPREADSHEET_TOO_LARGE (422) for a workbook that expands beyond the limits.
 */
export async function boundedWorkbook(buffer: Buffer, limits: SpreadsheetLimits = DEFAULT_LIMITS): Promise<Buffer> {
  return storedZip(sheetsLast(await inflateAll(buffer, limits)));
}

/**
 * Worksheets after the parts they refer to (relationships, shared strings): exceljs's streaming
 * reader then reads each sheet straight away instead of parking it in a temporary file, and
 * resolves its shared strings (LibreOffice writes sheet1.xml before sharedStrings.xml).
 */
function sheetsLast(entries: InflatedEntry[]): InflatedEntry[] {
  const isSheet = (entry: InflatedEntry) => entry.name.startsWith('xl/worksheets/');
  return [...entries.filter((entry) => !isSheet(entry)), ...entries.filter(isSheet)];
}
