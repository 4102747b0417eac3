import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AUTHENTICATION_TYPES, ERROR_CODES, LOCALE_CODES, LOCALE_SETTINGS } from '@eelarve/shared';
import { createIntl } from 'react-intl';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { en } from './messages/en';
import { et } from './messages/et';

const here = path.dirname(fileURLToPath(import.meta.url));
const webSrc = path.resolve(here, '..');
const sharedSrc = path.resolve(here, '../../../shared/src');

const catalogs = { et, en } as Record<string, Record<string, string>>;

function filesUnder(dir: string, extension: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(full, extension);
    return entry.name.endsWith(extension) ? [full] : [];
  });
}

/** Names of the ICU arguments of a message (`{name}`, `{count, plural, ...}`). */
function argumentNames(message: string): string[] {
  return [...new Set([...message.matchAll(/\{\s*([A-Za-z_][\w]*)\s*[,}]/g)].map((match) => match[1]!))].sort();
}

describe('i18n catalogs', () => {
  it('et and en have exactly the same keys', () => {
    const etKeys = Object.keys(et).sort();
    const enKeys = Object.keys(en).sort();
    expect(
      enKeys.filter((key) => !etKeys.includes(key)),
      'keys only in en',
    ).toEqual([]);
    expect(
      etKeys.filter((key) => !enKeys.includes(key)),
      'keys only in et',
    ).toEqual([]);
  });

  it('has no empty messages and the same placeholders in both languages', () => {
    for (const [key, message] of Object.entries(et)) {
      const english = (en as Record<string, string>)[key] ?? '';
      expect(message.trim(), `et ${key}`).not.toBe('');
      expect(english.trim(), `en ${key}`).not.toBe('');
      expect(argumentNames(english), `placeholders of ${key}`).toEqual(argumentNames(message));
    }
  });

  it('every message is valid ICU and formats with its placeholders', () => {
    for (const [locale, messages] of Object.entries(catalogs)) {
      const problems: string[] = [];
      const intl = createIntl({ locale, messages, onError: (error) => problems.push(String(error)) });
      for (const [key, message] of Object.entries(messages)) {
        const values = Object.fromEntries(argumentNames(message).map((name) => [name, 'none']));
        intl.formatMessage({ id: key as keyof typeof et }, values);
      }
      expect(problems, locale).toEqual([]);
    }
  });

  it('translates every server error code', () => {
    const missing = ERROR_CODES.map((code) => `error.${code}`).filter((key) => !(key in et));
    expect(missing).toEqual([]);
  });

  it('translates every validation message key of the shared schemas', () => {
    const used = new Set<string>();
    for (const file of filesUnder(sharedSrc, '.ts')) {
      for (const match of readFileSync(file, 'utf8').matchAll(/['"`](validation\.[A-Za-z]+)['"`]/g)) used.add(match[1]!);
    }
    expect(used.size).toBeGreaterThan(0);
    expect([...used].filter((key) => !(key in et))).toEqual([]);
  });

  it('names every authentication type, locale and locale setting', () => {
    const wanted = [
      ...AUTHENTICATION_TYPES.map((type) => `authType.${type}`),
      ...LOCALE_CODES.map((code) => `locale.${code}`),
      ...LOCALE_CODES.map((code) => `language.${code}`),
      ...LOCALE_SETTINGS.map((setting) => `localeSetting.${setting.name}`),
    ];
    expect(wanted.filter((key) => !(key in et))).toEqual([]);
  });
});

/**
 * Every user-visible string goes through the catalogs: no letters in JSX text, and no literal
 * words in the attributes that people read (aria-label, title, placeholder, alt, label).
 */
describe('components use the catalogs', () => {
  const READ_ATTRIBUTES = new Set(['aria-label', 'title', 'placeholder', 'alt', 'label', 'aria-description']);
  const LETTER = /\p{L}/u;

  function literalTexts(label: string, text: string): string[] {
    const source = ts.createSourceFile(label, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    const found: string[] = [];
    const where = (node: ts.Node) => {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      return `${label}:${line + 1}`;
    };
    const visit = (node: ts.Node) => {
      if (ts.isJsxText(node) && LETTER.test(node.text)) {
        found.push(`${where(node)} text "${node.text.trim()}"`);
      } else if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText(source))) {
        const value = node.initializer;
        const literal =
          value && ts.isStringLiteral(value)
            ? value.text
            : value && ts.isJsxExpression(value) && value.expression && ts.isStringLiteralLike(value.expression)
              ? value.expression.text
              : null;
        if (literal !== null && LETTER.test(literal)) found.push(`${where(node)} ${node.name.getText(source)}="${literal}"`);
      } else if (
        ts.isJsxExpression(node) &&
        node.expression &&
        ts.isStringLiteralLike(node.expression) &&
        ts.isJsxElement(node.parent) &&
        LETTER.test(node.expression.text)
      ) {
        found.push(`${where(node)} text {"${node.expression.text}"}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
  }

  it('the checker notices literal text and leaves translated text, symbols and numbers alone', () => {
    const probe = [
      'export const A = ({ x }: { x: string }) => (',
      '  <div title="Hello" aria-label={"World"} placeholder={x}>',
      '    Some words',
      '    <b>{"more words"}</b>',
      '    <FormattedMessage id="login.title" />',
      '    {x} – 404 · {1}',
      '  </div>',
      ');',
    ].join('\n');
    expect(literalTexts('probe.tsx', probe)).toEqual([
      'probe.tsx:2 title="Hello"',
      'probe.tsx:2 aria-label="World"',
      'probe.tsx:3 text "Some words"',
      'probe.tsx:4 text {"more words"}',
    ]);
  });

  it('no .tsx file under web/src contains literal user-visible text', () => {
    const files = filesUnder(webSrc, '.tsx');
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((file) => literalTexts(path.relative(webSrc, file), readFileSync(file, 'utf8')))).toEqual([]);
  });
});
