import fc from 'fast-check';

/**
 * Request bodies for the property-based command test, derived from a route's zod body schema and
 * mutated around it: mostly the shape the route expects (so commands really run and append),
 * with boundary and out-of-range numbers, and at any node, now and then, junk of another kind.
 * Reads zod 4's public definition objects (`schema._zod.def`).
 */

type Def = { type: string; [key: string]: unknown };
type Check = { _zod: { def: { check: string; [key: string]: unknown } } };
type Schema = { _zod: { def: Def } };

const INT_MAX = 2_147_483_647;
const INT_MIN = -2_147_483_648;

/** Integers at and just past every edge a column or a JavaScript number has. */
export const boundaryNumbers = fc.constantFrom(
  0,
  1,
  -1,
  -0,
  INT_MAX,
  INT_MAX + 1,
  INT_MIN,
  INT_MIN - 1,
  32_767,
  32_768,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER,
  1e21,
  1e300,
  -1e300,
  0.5,
  2.000001,
  1e-7,
);

/** Strings that look like numbers or nothing, and strings no store should receive. */
export const nastyStrings = fc.constantFrom(
  '',
  ' ',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '0x10',
  '-0',
  '2147483648',
  'null',
  'true',
  '[]',
  '{}',
  '\t',
  '\u0085',
  'é'.repeat(300),
);

/** Anything at all, nested a little: objects, arrays, numbers, strings, null. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(
  boundaryNumbers,
  nastyStrings,
  fc.constant(null),
  fc.boolean(),
  fc.anything({ maxDepth: 3, maxKeys: 4, withNullPrototype: false }),
);

export interface ArbitraryContext {
  /** Ids that exist in the test's world: an uuid field often gets one of them. */
  knownIds: readonly string[];
  /** The world's ids by field name (classifierId, userId, …), preferred over `knownIds`. */
  idsByField: Readonly<Record<string, readonly string[]>>;
  /** How often (out of 7) a node is replaced by junk; 0 keeps the shape (numbers still reach their edges). */
  junkWeight: number;
  /** Appended to every free text (not ids, e-mails, URLs, patterns or enums) and record key: a body that only the text rules refuse. */
  mark?: string;
}

function checksOf(def: Def): Check['_zod']['def'][] {
  return ((def.checks as Check[] | undefined) ?? []).map((check) => check._zod.def);
}

function numberArbitrary(def: Def): fc.Arbitrary<number> {
  let min = Number.MIN_SAFE_INTEGER;
  let max = Number.MAX_SAFE_INTEGER;
  let integer = false;
  for (const check of checksOf(def)) {
    if (check.check === 'greater_than') min = Number(check.value);
    if (check.check === 'less_than') max = Number(check.value);
    if (check.check === 'number_format') integer = true;
  }
  const inRange = integer ? fc.integer({ min: Math.max(min, INT_MIN * 4), max: Math.min(max, INT_MAX * 4) }) : fc.double({ min, max, noNaN: true });
  return fc.oneof(
    { weight: 4, arbitrary: inRange },
    { weight: 2, arbitrary: fc.constantFrom(min, max) },
    { weight: 1, arbitrary: boundaryNumbers },
    { weight: 1, arbitrary: fc.constantFrom(min - 1, max + 1) },
  );
}

function stringArbitrary(def: Def, context: ArbitraryContext, field: string): fc.Arbitrary<string> {
  let maxLength = 300;
  const formats: fc.Arbitrary<string>[] = [];
  for (const check of checksOf(def)) {
    if (check.check === 'max_length') maxLength = Number(check.maximum);
    if (check.check === 'string_format' && check.format === 'regex') formats.push(fc.stringMatching(check.pattern as RegExp, { size: 'small' }));
  }
  const format = def.format;
  if (format === 'uuid' || format === 'guid') {
    const ids = context.idsByField[field] ?? context.knownIds;
    return fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...ids) },
      { weight: 1, arbitrary: fc.constantFrom(...context.knownIds) },
      { weight: 1, arbitrary: fc.uuid() },
    );
  }
  if (format === 'email') return fc.oneof(fc.emailAddress(), nastyStrings);
  if (format === 'url') return fc.oneof(fc.webUrl(), nastyStrings);
  if (formats.length > 0) return fc.oneof(...formats, nastyStrings);
  const readable = fc.string({ minLength: 1, maxLength: Math.min(maxLength, 40) }).map((text) => `${text.trim() || 'x'}`);
  if (context.mark !== undefined) return readable.map((text) => `${text}${context.mark}`);
  return fc.oneof(
    { weight: 12, arbitrary: readable },
    { weight: 1, arbitrary: nastyStrings },
    { weight: 1, arbitrary: fc.constant('x'.repeat(maxLength + 1)) },
  );
}

function shaped(schema: Schema, context: ArbitraryContext, depth: number, field: string): fc.Arbitrary<unknown> {
  const def = schema._zod.def;
  const inner = (child: unknown, childField = field) => bodyArbitrary(child as Schema, context, depth + 1, childField);
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, Schema>;
      const keys = Object.keys(shape);
      return fc.record(Object.fromEntries(keys.map((key) => [key, inner(shape[key], key)])), {
        requiredKeys: keys.filter((key) => !isOptional(shape[key] as Schema)),
      });
    }
    case 'array':
      return fc.array(inner(def.element), { maxLength: depth > 2 ? 2 : 4 });
    case 'record':
      return fc.dictionary(stringArbitrary((def.keyType as Schema)._zod.def, context, field), inner(def.valueType), { maxKeys: 3 });
    case 'string':
      return stringArbitrary(def, context, field);
    case 'number':
      return numberArbitrary(def);
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, string>));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'union':
      return fc.oneof(...(def.options as Schema[]).map((option) => inner(option)));
    case 'optional':
    case 'default':
    case 'prefault':
      return fc.oneof({ weight: 4, arbitrary: inner(def.innerType) }, { weight: 1, arbitrary: fc.constant(undefined) });
    case 'nullable':
      return fc.oneof({ weight: 4, arbitrary: inner(def.innerType) }, { weight: 1, arbitrary: fc.constant(null) });
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return inner(def.innerType);
    case 'pipe':
      // The shape to aim at is `out` (a preprocess, or a string piped into its format), unless `out` only transforms.
      return (def.out as Schema)._zod.def.type === 'transform' ? inner(def.in) : inner(def.out);
    default:
      return junk;
  }
}

function isOptional(schema: Schema): boolean {
  const type = schema._zod.def.type;
  return type === 'optional' || type === 'default' || type === 'prefault';
}

/** A body for `schema`: its shape, with each node replaced by junk `junkWeight` times in 7. */
export function bodyArbitrary(schema: Schema | undefined, context: ArbitraryContext, depth = 0, field = ''): fc.Arbitrary<unknown> {
  if (!schema?._zod) return junk;
  if (depth > 6) return junk;
  if (context.junkWeight === 0) return shaped(schema, context, depth, field);
  return fc.oneof({ weight: 7 - context.junkWeight, arbitrary: shaped(schema, context, depth, field) }, { weight: context.junkWeight, arbitrary: junk });
}

/** Mostly well-shaped bodies (so commands run and append), the rest mutated throughout. */
export function mixedBodyArbitrary(schema: Schema | undefined, ids: Omit<ArbitraryContext, 'junkWeight'>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: bodyArbitrary(schema, { ...ids, junkWeight: 0 }) },
    { weight: 2, arbitrary: bodyArbitrary(schema, { ...ids, junkWeight: 1 }) },
  );
}
