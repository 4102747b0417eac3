import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { itemsCsv } from '../src/features/classifiers/files';
import { schemesFixture } from '@eelarve/testing/schemes';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { type Client, login } from './helpers';

/**
 * Issue 8, finding 7: uploads are capped per route (one file, few parts, 10 MB) and an .xlsx that
 * expands (a zip bomb, honest or lying about its sizes) is refused with a code before a parser
 * reads it, with the process's memory staying flat.
 */
let server: TestServer;
let editor: Client;
let classifierId: string;

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MB = 1024 * 1024;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  const admin = await login(server.app, server.admin.email, server.admin.password);
  const accounts = accountsFixture(server.app, admin);
  const organizationId = await accounts.organization('Viljandi Linnavalitsus');
  editor = await login(server.app, (await accounts.reader(organizationId, ['CLASSIFICATION_ADMIN'])).email, PASSWORD);
  const documentId = await schemesFixture(server.app).document(organizationId);
  const response = await editor.request({
    method: 'POST',
    url: `/api/document/${documentId}/classifier`,
    payload: {
      name: 'Tegevusala',
      itemName: 'Tegevus',
      fieldName: 'activity',
      description: '',
      codeSettings: { typeName: 'Code', minLength: 1, maxLength: 20, hierarchical: false },
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  classifierId = response.json().id;
});
afterAll(async () => server?.close());

// ---- building requests and archives ----------------------------------------------------------

interface Part {
  name: string;
  filename?: string;
  type?: string;
  content: Buffer | string;
}

function multipart(parts: Part[]) {
  const boundary = `----eelarve${randomUUID()}`;
  const chunks = parts.flatMap((part) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}\r\n` +
        `${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`,
    ),
    Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content),
    Buffer.from('\r\n'),
  ]);
  return { payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const validate = (parts: Part[]) => editor.request({ method: 'POST', url: `/api/classifier/${classifierId}/items/validate`, ...multipart(parts) });
const upload = (filename: string, content: Buffer | string, type = XLSX) => validate([{ name: 'file', filename, type, content }]);

function expectError(response: { statusCode: number; body: string; json(): { code: string } }, status: number, code: string) {
  expect({ status: response.statusCode, code: response.json().code }, response.body).toEqual({ status, code });
}

interface ZipEntry {
  name: string;
  /** Deflated bytes. */
  data: Buffer;
  size: number;
  crc: number;
  /** What the central directory claims (a lying archive claims less than the data holds). */
  declaredSize?: number;
}

const deflated = (name: string, text: string): ZipEntry => {
  const raw = Buffer.from(text, 'utf8');
  return { name, data: deflateRawSync(raw), size: raw.length, crc: crc32(raw) };
};

/** A zip archive of deflated entries, with the sizes each entry declares. */
function zipOf(entries: ZipEntry[]): Buffer {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const size = entry.declaredSize ?? entry.size;
    const header = Buffer.alloc(26);
    header.writeUInt16LE(20, 0);
    header.writeUInt16LE(0, 2);
    header.writeUInt16LE(8, 4); // deflate
    header.writeUInt32LE(0, 6);
    header.writeUInt32LE(entry.crc, 10);
    header.writeUInt32LE(entry.data.length, 14);
    header.writeUInt32LE(size >>> 0, 18);
    header.writeUInt16LE(name.length, 22);
    header.writeUInt16LE(0, 24);
    const local = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), header]);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    header.copy(central, 6);
    central.writeUInt32LE(offset, 42);
    parts.push(local, name, entry.data);
    directory.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(
    directory.reduce((sum, part) => sum + part.length, 0),
    12,
  );
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...directory, end]);
}

const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
const row = (number: number, texts: string[]) => `<row r="${number}">${texts.map((text, index) => cell(`${'ABCD'[index]}${number}`, text)).join('')}</row>`;
const sheetXml = (rows: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;

/** The parts of a minimal workbook around the given first sheet. */
function workbook(sheet: ZipEntry, extra: ZipEntry[] = []): Buffer {
  return zipOf([
    deflated(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    ),
    deflated(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    ),
    deflated(
      'xl/workbook.xml',
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="items" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
    deflated(
      'xl/_rels/workbook.xml.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
    ...extra,
    sheet,
  ]);
}

/**
 * A sheet whose one cell holds `megabytes` MB of 'A': deflate shrinks it about a thousand times,
 * so the archive is a few hundred KB. Deflated as a stream, so the test never holds it inflated.
 */
async function bombSheet(megabytes: number): Promise<ZipEntry> {
  const head = Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${row(1, ['code', 'name'])}<row r="2"><c r="A2" t="inlineStr"><is><t>`,
  );
  const tail = Buffer.from('</t></is></c></row></sheetData></worksheet>');
  const filler = Buffer.alloc(MB, 'A');
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  let crc = crc32(head);
  deflate.write(head);
  for (let index = 0; index < megabytes; index += 1) {
    crc = crc32(filler, crc);
    if (!deflate.write(filler)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  crc = crc32(tail, crc);
  deflate.end(tail);
  await done;
  return { name: 'xl/worksheets/sheet1.xml', data: Buffer.concat(out), size: head.length + megabytes * MB + tail.length, crc };
}

const rssGrowthDuring = async (work: () => Promise<void>): Promise<number> => {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, process.memoryUsage().rss) - before;
};

// ---- tests -----------------------------------------------------------------------------------

it('reads a small hand-made workbook (the bombs below differ only in their sheet)', async () => {
  const file = workbook(deflated('xl/worksheets/sheet1.xml', sheetXml(row(1, ['code', 'name']) + row(2, ['A1', 'Esimene']))));
  const response = await upload('items.xlsx', file);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json().rows.map((entry: { values: { code: string } }) => entry.values.code)).toEqual(['A1']);
});

it('imports an .xlsx saved by LibreOffice Calc', async () => {
  // soffice --headless --infilter=CSV:44,34,76,1 --convert-to xlsx fixtures/libreoffice-items.csv (LibreOffice 7.4 Calc)
  const file = readFileSync(path.join(__dirname, 'fixtures', 'libreoffice-items.xlsx'));
  const response = await upload('libreoffice-items.xlsx', file);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  expect(body.rows.map((entry: { values: { code: string; name: string } }) => [entry.values.code, entry.values.name])).toEqual([
    ['A1', 'Esimene'],
    ['A2', 'Teine õ'],
  ]);
  expect(body.valid).toBe(true);
});

it('refuses a zip bomb whose directory tells its size, before inflating it, with memory flat', async () => {
  const sheet = await bombSheet(512);
  const file = workbook(sheet);
  expect(file.length).toBeLessThan(MB);
  let response: Awaited<ReturnType<typeof upload>> | undefined;
  const growth = await rssGrowthDuring(async () => {
    response = await upload('bomb.xlsx', file);
  });
  expectError(response!, 422, 'SPREADSHEET_TOO_LARGE');
  expect(response!.json().details).toMatchObject({ reason: 'uncompressedSize' });
  expect(growth).toBeLessThan(64 * MB);
});

it('refuses a zip bomb whose directory lies about its size, after counting only a few bytes', async () => {
  const sheet = await bombSheet(512);
  const file = workbook({ ...sheet, declaredSize: 4096 });
  let response: Awaited<ReturnType<typeof upload>> | undefined;
  const growth = await rssGrowthDuring(async () => {
    response = await upload('bomb.xlsx', file);
  });
  expectError(response!, 422, 'SPREADSHEET_TOO_LARGE');
  expect(growth).toBeLessThan(64 * MB);
});

it('refuses huge shared strings and archives with too many entries', async () => {
  const strings = await bombSheet(100);
  const sheet = deflated('xl/worksheets/sheet1.xml', sheetXml(row(1, ['code', 'name'])));
  const withStrings = workbook(sheet, [{ ...strings, name: 'xl/sharedStrings.xml' }]);
  expectError(await upload('strings.xlsx', withStrings), 422, 'SPREADSHEET_TOO_LARGE');

  const many = Array.from({ length: 1_001 }, (_, index) => deflated(`xl/media/pad${index}.xml`, '<x/>'));
  const response = await upload('entries.xlsx', workbook(sheet, many));
  expectError(response, 422, 'SPREADSHEET_TOO_LARGE');
  expect(response.json().details).toMatchObject({ reason: 'entries' });
});

it('refuses a file over 10 MB with FILE_TOO_LARGE, also a 200 MB one sent as a stream', async () => {
  const csv = `code,name\r\n${'X1,Nimi\r\n'.repeat(Math.ceil((11 * MB) / 9))}`;
  const response = await upload('items.csv', csv, 'text/csv');
  expectError(response, 413, 'FILE_TOO_LARGE');
  expect(response.json().details).toMatchObject({ maxBytes: 10 * MB });

  const boundary = `----eelarve${randomUUID()}`;
  const chunk = Buffer.alloc(MB, 'x');
  async function* body() {
    yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`);
    for (let index = 0; index < 200; index += 1) yield chunk;
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  const streamed = await editor.request({
    method: 'POST',
    url: `/api/classifier/${classifierId}/items/validate`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Readable.from(body()),
  });
  expectError(streamed, 413, 'FILE_TOO_LARGE');
});

it('refuses an import file with more than 100,000 rows, as CSV and as .xlsx', async () => {
  const rows = Array.from({ length: 100_001 }, (_, index) => [`K${index}`, 'Nimi']);
  expectError(await upload('rows.csv', itemsCsv(['code', 'name'], rows), 'text/csv'), 422, 'IMPORT_TOO_MANY_ROWS');
  const sheet = sheetXml(row(1, ['code', 'name']) + rows.map((values, index) => row(index + 2, values)).join(''));
  const response = await upload('rows.xlsx', workbook(deflated('xl/worksheets/sheet1.xml', sheet)));
  expectError(response, 422, 'IMPORT_TOO_MANY_ROWS');
  expect(response.json().details).toEqual({ maxRows: 100_000 });
});

it('refuses a request with 1,000 parts or two files with TOO_MANY_PARTS, never 500', async () => {
  const fields = Array.from({ length: 1_000 }, (_, index) => ({ name: `field${index}`, content: 'x' }));
  const file = { name: 'file', filename: 'items.csv', type: 'text/csv', content: 'code,name\r\nA1,Esimene\r\n' };
  expectError(await validate([...fields, file]), 413, 'TOO_MANY_PARTS');
  expectError(await validate([file, ...fields]), 413, 'TOO_MANY_PARTS');
  expectError(await validate([file, { ...file, filename: 'second.csv' }]), 413, 'TOO_MANY_PARTS');
  // One file alone still works.
  expect((await validate([file])).statusCode).toBe(200);
});
