/** A handle as the service names it: letters, digits and underscores, 1 to 64 of them, a leading @ optional. */
import { z } from 'zod';

export const HANDLE_NAME = /^[A-Za-z0-9_]{1,64}$/;

/** A handle from outside (a deep link, a command line): trimmed, without its @, and checked. */
export const handleNameSchema = z
  .string()
  .trim()
  .transform((raw) => raw.replace(/^@/, ''))
  .pipe(z.string().regex(HANDLE_NAME, 'A handle is letters, digits and underscores.'));
