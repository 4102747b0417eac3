import { createHash } from 'node:crypto';

/**
 * The id a copy gives to the copy of `sourceId` within one task: a name-based UUID (version 5
 * layout, SHA-1 of the task id and the source id). Fixed before anything is written, so a
 * retried attempt of the task arrives at the same ids and finds what an earlier attempt wrote.
 */
export function copyIdOf(taskId: string, sourceId: string): string {
  const hash = createHash('sha1').update(`${taskId}:${sourceId}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The domain's copy builders draw a new id per copied object (`newId`, in their own order) and
 * record source id -> new id in a map. This turns those drawn ids, wherever they appear in the
 * built commands (values or keys), into the task's fixed ids, and puts the fixed ones in `ids`.
 */
export function fixCopyIds<T>(built: T, drawn: ReadonlyMap<string, string>, taskId: string, ids: Map<string, string>): T {
  const fixed = new Map<string, string>();
  for (const [sourceId, drawnId] of drawn) {
    if (ids.get(sourceId) === drawnId) continue;
    const copyId = copyIdOf(taskId, sourceId);
    fixed.set(drawnId, copyId);
    ids.set(sourceId, copyId);
  }
  const translate = (value: unknown): unknown => {
    if (typeof value === 'string') return fixed.get(value) ?? value;
    if (Array.isArray(value)) return value.map(translate);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [fixed.get(key) ?? key, translate(entry)]));
    return value;
  };
  return translate(built) as T;
}
