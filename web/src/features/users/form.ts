/** Field messages of a form: a shared `validation.*` key, or `error.<CODE>` for a server error on that field. */
export type FormErrors = Partial<Record<string, string>>;

/** The first message per top-level field of zod issues (the shared schemas carry message keys). */
export function issuesToErrors(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): FormErrors {
  const errors: FormErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    if (!errors[field]) errors[field] = issue.message;
  }
  return errors;
}
