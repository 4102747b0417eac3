import { z } from 'zod';
import { LIMITS } from './limits';

/** Shared field rules so server and browser reject the same input with the same message. */
export const requiredText = (max: number = LIMITS.text) =>
  z.string().trim().min(1, { message: 'validation.required' }).max(max, { message: 'validation.maxLength' });

export const optionalText = (max: number = LIMITS.text) => z.string().trim().max(max, { message: 'validation.maxLength' });

export const uuid = z.uuid({ message: 'validation.format' });
export const email = z.string().trim().min(1, { message: 'validation.required' }).max(LIMITS.text).pipe(z.email({ message: 'validation.email' }));
