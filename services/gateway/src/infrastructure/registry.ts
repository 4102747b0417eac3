/**
 * Named extension points that features fill in (document and budget copy steps). `register`
 * replaces an entry and returns a function that restores the one it replaced, so tests can swap
 * entries in and out without losing the real ones.
 */
export function createRegistry<Name extends string, Entry>() {
  const entries = new Map<Name, Entry>();
  return {
    register(name: Name, entry: Entry): () => void {
      const replaced = entries.get(name);
      entries.set(name, entry);
      return () => {
        if (entries.get(name) !== entry) return;
        if (replaced) entries.set(name, replaced);
        else entries.delete(name);
      };
    },
    get: (name: Name): Entry | undefined => entries.get(name),
    has: (name: Name): boolean => entries.has(name),
  };
}
