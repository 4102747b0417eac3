import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { mailDirectory } from './outbox';

/**
 * Reading back the .eml files the outbox writes when no SMTP server is configured: for API and
 * browser tests, and for a person trying the product locally.
 */
export interface ReadMail {
  file: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
}

function decodeQuotedPrintable(body: string): Buffer {
  const joined = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const char = joined[i]!;
    const hex = joined.slice(i + 1, i + 3);
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=). */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_match, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
    );
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function splitEntity(raw: string): { headers: Map<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  if (!match) return { headers: parseHeaders(raw), body: '' };
  return { headers: parseHeaders(raw.slice(0, match.index)), body: raw.slice(match.index + match[0].length) };
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body).toString('utf8');
  return body;
}

/** Collects the text/plain and text/html parts of a (possibly nested) MIME entity. */
function collectParts(raw: string, into: { text: string; html: string }): void {
  const { headers, body } = splitEntity(raw);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith('--')) break;
      collectParts(part.replace(/^\r?\n/, ''), into);
    }
    return;
  }
  if (type.toLowerCase().startsWith('text/html')) into.html += decodeBody(headers, body);
  else if (type.toLowerCase().startsWith('text/plain')) into.text += decodeBody(headers, body);
}

export async function readMailFile(file: string): Promise<ReadMail> {
  const raw = await readFile(file, 'utf8');
  const { headers } = splitEntity(raw);
  const parts = { text: '', html: '' };
  collectParts(raw, parts);
  return {
    file,
    to: decodeHeader(headers.get('to') ?? ''),
    from: decodeHeader(headers.get('from') ?? ''),
    subject: decodeHeader(headers.get('subject') ?? ''),
    text: parts.text,
    html: parts.html,
  };
}

/** Every message written so far, oldest first. */
export async function listMail(dataDir: string): Promise<ReadMail[]> {
  const directory = mailDirectory({ dataDir });
  let names: string[];
  try {
    names = (await readdir(directory)).filter((name) => name.endsWith('.eml')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return Promise.all(names.map((name) => readMailFile(path.join(directory, name))));
}

function addressedTo(mail: ReadMail, address: string): boolean {
  return mail.to.toLowerCase().includes(address.trim().toLowerCase());
}

/** The newest message to `address`, or undefined. */
export async function findNewestMail(dataDir: string, address: string): Promise<ReadMail | undefined> {
  return (await listMail(dataDir)).filter((mail) => addressedTo(mail, address)).at(-1);
}

/** All messages to `address`, oldest first. */
export async function mailTo(dataDir: string, address: string): Promise<ReadMail[]> {
  return (await listMail(dataDir)).filter((mail) => addressedTo(mail, address));
}

/**
 * Waits until a message to `address` arrives that is not among `seen` (file names) and returns
 * it; delivery is asynchronous.
 */
export async function waitForMail(dataDir: string, address: string, options: { seen?: string[]; timeoutMs?: number } = {}): Promise<ReadMail> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  const seen = new Set(options.seen ?? []);
  for (;;) {
    const fresh = (await mailTo(dataDir, address)).filter((mail) => !seen.has(mail.file));
    if (fresh.length > 0) return fresh.at(-1)!;
    if (Date.now() > deadline) throw new Error(`no mail to ${address} within the time limit`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The first link in the message's text (optionally: the first whose path is `page`). */
export function extractLink(mail: ReadMail, page?: string): string {
  const links = mail.text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
  const link = page ? links.find((candidate) => new URL(candidate).pathname === page) : links[0];
  if (!link) throw new Error(`no ${page ?? ''} link in mail "${mail.subject}"`);
  return link;
}

/** The `token` query parameter of the message's first link to `page`. */
export function extractToken(mail: ReadMail, page?: string): string {
  const token = new URL(extractLink(mail, page)).searchParams.get('token');
  if (!token) throw new Error(`no token in mail "${mail.subject}"`);
  return token;
}
