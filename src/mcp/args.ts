// Argument schemas more than one tool takes. A unit reference is bounded here as parseRef bounds it
// (src/units/validate.ts), so a huge one is refused as a bad argument (exit 2) before any request.
import { z } from 'zod';
import { MAX_REF_LENGTH } from '../units/validate.js';

/** One unit reference; the tool still reads it with parseRef (prx-12 is PRX-12). */
export const refArg = z.string().min(1).max(MAX_REF_LENGTH);
