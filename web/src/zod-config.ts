import { z } from 'zod';

/**
 * zod probes `new Function` for its fast object parser when the first object schema is built.
 * Under the product's CSP (no 'unsafe-eval') the probe is refused and reported as a violation,
 * although zod then falls back. jitless skips the probe. main.tsx imports this module first,
 * before any module that builds schemas (@eelarve/shared's contracts).
 */
z.config({ jitless: true });
