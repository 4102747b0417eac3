import type { Page } from 'playwright-core';
import { en } from '../src/i18n/messages/en';
import { et } from '../src/i18n/messages/et';
import { LOCALE_STORAGE_KEY } from '../src/i18n/locale-storage';

/**
 * Checks for the records screens in English (issue 11 gaps, R12 point 4): the words of the
 * Estonian catalog that English says otherwise. A page in English shows none of them; one that
 * does has a string left untranslated (or written into a component).
 */

/** The literal parts of a message (ICU arguments and plural branches cut out). */
function literalParts(message: string): string[] {
  return message
    .split(/\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}/)
    .map((part) => part.trim())
    .filter((part) => part.length >= 8);
}

/** Texts only the Estonian catalog has (at least 8 characters, so no short word that English shares). */
const ESTONIAN_ONLY: readonly string[] = (() => {
  const english = new Set(Object.values(en).flatMap(literalParts));
  const texts = new Set<string>();
  for (const [key, value] of Object.entries(et)) {
    if (en[key as keyof typeof en] === value) continue;
    for (const part of literalParts(value)) if (!english.has(part)) texts.add(part);
  }
  return [...texts];
})();

/**
 * The Estonian catalog texts the page shows now (visible text and the names given to assistive
 * technology). `data`: names the test gave its documents or budgets that happen to be catalog
 * words (a budget called 'Kinnitatud'); they are data, not texts of the product.
 */
export async function estonianTextsOn(page: Page, data: readonly string[] = []): Promise<string[]> {
  const shown = await page.evaluate(() => {
    const labels = Array.from(document.querySelectorAll('[aria-label],[title],[placeholder]')).flatMap((element) =>
      ['aria-label', 'title', 'placeholder'].map((name) => element.getAttribute(name) ?? ''),
    );
    // biome-ignore lint/performance/useDomNodeTextContent: what is rendered, not text hidden by CSS.
    return [document.body.innerText, ...labels].join('\n');
  });
  const withoutData = data.reduce((text, name) => text.replaceAll(name, ''), shown);
  return ESTONIAN_ONLY.filter((text) => withoutData.includes(text));
}

/** Makes the signed-in page English for its next loads, as the language switch does (the locale kept on the device). */
export async function useEnglish(page: Page): Promise<void> {
  await page.evaluate((key) => window.localStorage.setItem(key, 'en'), LOCALE_STORAGE_KEY);
}
