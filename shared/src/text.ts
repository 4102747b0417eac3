import { z } from 'zod';
import { LIMITS } from './limits';

/**
 * Text primitives every contract string field is built from (issue 8, finding 2). PostgreSQL
 * refuses U+0000 in text and jsonb, and a lone UTF-16 surrogate cannot be stored or sent as
 * UTF-8 faithfully, so neither may reach a command; other control characters (C0, DEL, C1) have
 * no business in names and codes either. Text areas keep tab and line breaks.
 */

/** The message key a field issue carries when its text holds a control character. */
export const CONTROL_CHARACTERS_MESSAGE = 'validation.controlCharacters';

/** Unicode category Cc: the C0 controls, DEL and the C1 controls. */
const ANY_CONTROL = /\p{Cc}/u;
/** The same but tab, line feed and carriage return, which a text area may hold. */
const CONTROL_BUT_LINE_BREAKS = /[^\P{Cc}\t\n\r]/u;
/** With the u flag a well-formed surrogate pair is one code point, so only a lone half matches. */
const LONE_SURROGATE = /\p{Cs}/u;

/** True when the text holds U+0000 or a lone surrogate: the two things no store can keep. */
export function isUnstorableText(value: string): boolean {
  return value.includes('\u0000') || LONE_SURROGATE.test(value);
}

/** Single-line text: no control character at all, no lone surrogate. */
export function isSingleLineText(value: string): boolean {
  return !ANY_CONTROL.test(value) && !LONE_SURROGATE.test(value);
}

/** Multi-line text (descriptions): tab, CR and LF allowed, nothing else of the controls. */
export function isMultiLineText(value: string): boolean {
  return !CONTROL_BUT_LINE_BREAKS.test(value) && !LONE_SURROGATE.test(value);
}

const controlCharacters = { message: CONTROL_CHARACTERS_MESSAGE };
const maxLength = { message: 'validation.maxLength' };

/**
 * A string that may hold no control character, trimmed, at most `max` long (the spec's text
 * field is 256). Checked before trimming too, so a trailing NUL or line break is refused rather
 * than quietly cut.
 */
export const singleLineText = (max: number = LIMITS.text) => z.string().refine(isSingleLineText, controlCharacters).trim().max(max, maxLength);

/** A text area's string (spec: 4096): tab and line breaks allowed, other controls refused; trimmed. */
export const multiLineText = (max: number = LIMITS.textArea) => z.string().refine(isMultiLineText, controlCharacters).trim().max(max, maxLength);

/** An opaque value as sent (password, token, code): not trimmed, no control characters. */
export const rawText = (max: number = LIMITS.text) => z.string().refine(isSingleLineText, controlCharacters).max(max, maxLength);

/** Single-line text whose length the caller checks or cuts itself (import rows are checked row by row). */
export const uncappedSingleLineText = () => z.string().refine(isSingleLineText, controlCharacters);
