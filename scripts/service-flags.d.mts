/** Types of service-flags.mjs (plain JavaScript: scripts/run.mjs runs before any TypeScript loader). */
export declare const SERVICE_HEAP_MB: number;
export declare function serviceNodeFlags(): string[];
