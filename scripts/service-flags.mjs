/**
 * The Node.js flags of the product's processes (npm start, and the benches that run them as
 * production does). V8 sizes a heap from the machine's memory (about 4 GB on a 24 GB machine) and
 * lets garbage grow toward that before it collects fully: after a 100,000-row import the gateway
 * held 880 MB, most of it garbage, and 1.3 GB while a 1,000,000-record budget was built. Bounded
 * at 512 MB of old space each (the projections thread included), the gateway peaked at 654 and
 * 836 MB, at the same speed; the largest live sets (an import's rows, a projector's page of
 * chunk events) stay well below the bound. Deployments that start a service themselves pass the
 * same flag (package.json's `serve`).
 */
export const SERVICE_HEAP_MB = 512;

export const serviceNodeFlags = () => [`--max-old-space-size=${SERVICE_HEAP_MB}`];
