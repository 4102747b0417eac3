import { z } from 'zod';
import { LIMITS } from './limits';
import { multiLineText, singleLineText } from './text';

/** Shared field rules so server and browser reject the same input with the same message. */
export const requiredText = (max: number = LIMITS.text) => singleLineText(max).min(1, { message: 'validation.required' });

/** An optional single-line text (may be empty). */
export const optionalText = (max: number = LIMITS.text) => singleLineText(max);

/** An optional text area (descriptions): line breaks and tabs allowed. */
export const optionalTextArea = (max: number = LIMITS.textArea) => multiLineText(max);

/**
 * A position in a list (display order, document or budget order): a whole number from 0 to the
 * read model's integer maximum, so no accepted command can carry a value its projector cannot store.
 */
export const orderValue = z
  .number({ message: 'validation.number' })
  .int({ message: 'validation.number' })
  .min(0, { message: 'validation.min' })
  .max(LIMITS.integerMax, { message: 'validation.max' });

export const uuid = z.uuid({ message: 'validation.format' });
export const email = requiredText(LIMITS.text).pipe(z.email({ message: 'validation.email' }));
