/**
 * The server's error codes (spec 1, 2 and 3, section 8). The web translates each code
 * (message id `error.<CODE>`); the HTTP status is part of the contract because ERP jobs and
 * scripts read it.
 */
export const ERROR_STATUS = {
  // generic
  SCHEMA_VALIDATION_ERROR: 400,
  MULTIPART_FORM_ERROR: 400,
  // uploads (issue 8, finding 7): a file over its route's cap, a form with too many parts, an
  // .xlsx that expands beyond the caps (zip bomb), an import file with too many rows
  FILE_TOO_LARGE: 413,
  TOO_MANY_PARTS: 413,
  SPREADSHEET_TOO_LARGE: 422,
  IMPORT_TOO_MANY_ROWS: 422,
  UNAUTHORIZED: 401,
  INSUFFICIENT_PERMISSIONS: 403,
  OBJECT_NOT_FOUND: 404,
  CONCURRENT_MODIFICATION: 409,
  PERMISSIONS_CHAIN_INVALID: 422,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  // a background task whose process stopped before it finished (never an HTTP answer; task.error)
  TASK_INTERRUPTED: 500,
  // authentication
  INVALID_USERNAME_OR_PASSWORD: 401,
  INVALID_CURRENT_PASSWORD: 422,
  ENTER_MFA_CODE: 403,
  INVALID_MFA_CODE: 422,
  MFA_NOT_INITIALIZED: 422,
  MFA_ALREADY_SET_UP: 422,
  MFA_NOT_SET_UP: 422,
  MFA_NOT_AVAILABLE: 422,
  EMAIL_NOT_CONFIRMED: 403,
  EMAIL_IN_USE: 409,
  INVALID_OR_EXPIRED_TOKEN: 422,
  PASSWORD_NOT_STRONG: 422,
  USER_NOT_FOUND: 404,
  SESSION_TOO_LONG: 422,
  TOO_MANY_ATTEMPTS: 429,
  CROSS_SITE_REQUEST: 403,
  EXTERNAL_AUTH_COOKIE_FAILED: 500,
  ELECTRONIC_ID_FAILED: 401,
  // users, occupations, roles, organizations
  OCCUPATION_NOT_FOUND: 404,
  ROLE_NOT_FOUND: 404,
  USER_ALREADY_ALLOCATED: 409,
  INVALID_USER_OR_ROLE: 422,
  ROLE_MAPPED_TO_OCCUPATION: 422,
  ROLE_RESERVED: 422,
  ROLE_NOT_MODIFIABLE: 422,
  ROLE_NAME_NOT_UNIQUE: 409,
  CURRENT_OCCUPATION_CANNOT_BE_REMOVED: 422,
  ADMIN_ALREADY_SET: 409,
  ADMIN_NOT_SET: 422,
  USER_HAS_OCCUPATION: 422,
  USER_NOT_MODIFIABLE: 422,
  OCCUPATION_NOT_MODIFIABLE: 422,
  UNSUITABLE_USER: 422,
  UNSUITABLE_OCCUPATION: 422,
  UNSUITABLE_ROLE: 422,
  ORGANIZATION_NOT_FOUND: 404,
  ORGANIZATION_IN_USE: 422,
  ORGANIZATION_UNSUITABLE: 422,
  RESOURCE_STATUSES_CANNOT_BE_DISABLED: 422,
  // resource statuses
  RESOURCE_STATUSES_NOT_ENABLED: 403,
  RESOURCE_STATUS_NOT_FOUND: 404,
  RESOURCE_STATUS_READ_ONLY: 422,
  RESOURCE_STATUS_EDITING_DISABLED: 403,
  RESOURCE_STATUS_RULE_MIXES_OVERRIDES: 422,
  RESOURCE_STATUS_ALREADY_DEFAULT: 422,
  RESOURCE_STATUS_HAS_NO_DEFAULT: 422,
  /** The resource's status (document's or budget's) forbids the action and the caller is not exempt. */
  ACTION_DISALLOWED_DUE_TO_STATUS: 403,
  /** Documents or budgets carry the status: it cannot be deleted until they have another one. */
  RESOURCE_STATUS_IN_USE: 422,
  // budget approval route (issue 10, point 6)
  APPROVAL_ACTION_NOT_ALLOWED: 403,
  APPROVAL_SELF_APPROVAL_NOT_ALLOWED: 403,
  APPROVAL_STATE_INVALID: 409,
  APPROVAL_RULE_MIXES_ALLOWANCES: 422,
  // documents
  DOCUMENT_PERIOD_UPDATE_RESTRICTED: 422,
  INVALID_MASTER_CLASSIFIER: 422,
  MASTER_CLASSIFIER_USED_IN_SCHEME: 422,
  MASTER_CLASSIFIER_MUST_BE_REQUIRED: 422,
  // schemes and sub-budgets
  SCHEME_NOT_FOUND: 404,
  SCHEME_NAME_NOT_UNIQUE: 409,
  SCHEME_FIELD_NAME_NOT_UNIQUE: 409,
  LAST_SCHEME: 422,
  SCHEME_HAS_SUB_BUDGETS: 422,
  SCHEME_HAS_NO_CLASSIFIERS: 422,
  CLASSIFIER_MISSING: 422,
  DOCUMENT_MISSING_MASTER_CLASSIFIER: 422,
  SUB_BUDGET_NOT_FOUND: 404,
  SUB_BUDGET_NOT_UNIQUE: 409,
  MAIN_CLASSIFIER_NOT_SELECTED: 422,
  SUB_BUDGET_CLASSIFIER_VALUE_INVALID: 422,
  SUB_BUDGET_HAS_RECORDS: 422,
  SUB_BUDGET_IMPORT_INVALID: 422,
  // budgets
  BUDGET_NOT_FOUND: 404,
  BUDGET_TYPE_IMMUTABLE: 422,
  BUDGET_NOT_MONITORING: 422,
  BUDGET_USED_AS_SUM_COMPONENT: 422,
  BUDGET_COPY_INVALID_SCHEME_PARAMETERS: 422,
  COPY_PART_NOT_AVAILABLE: 422,
  SUM_BUDGET_NO_COMPONENTS: 422,
  SUM_BUDGET_SELF_REFERENCE: 422,
  SUM_BUDGET_CYCLE: 422,
  SUM_BUDGET_COMPONENT_NOT_FOUND: 422,
  COMPONENT_ALREADY_IN_USE: 422,
  COMPONENT_READ_DISABLED_BY_STATUS: 422,
  // classifiers
  CLASSIFIER_NOT_FOUND: 404,
  CLASSIFIER_ITEM_NOT_FOUND: 404,
  CLASSIFIER_MIN_GREATER_THAN_MAX: 422,
  CLASSIFIER_HAS_GROUPED_BY: 422,
  CLASSIFIER_HAS_ITEMS: 422,
  CODE_TYPE_BLOCKED_BY_ITEMS: 422,
  INVALID_CODE: 422,
  CLASSIFIER_IN_USE: 422,
  ITEM_IN_USE: 422,
  ITEM_CODE_IN_USE: 409,
  ONLY_GROUPING_CAN_CHANGE_SIGN: 422,
  HAS_SIGN_CHANGING_ITEMS: 422,
  LENGTH_CONFLICTS_WITH_CODES: 422,
  CANNOT_BE_REQUIRED: 422,
  NOT_USED_IN_ALL_RECORDS: 422,
  INVALID_GROUPING: 422,
  INVALID_PRIMARY_GROUPING: 422,
  FIELD_NAME_NOT_UNIQUE: 409,
  CLASSIFIER_IMPORT_INVALID: 422,
  // records (spec 3, section 8; issue 11)
  RECORD_NOT_FOUND: 404,
  RECORD_ID_INVALID: 400,
  RECORD_NAME_TOO_LONG: 422,
  RECORD_FACTORS_MISMATCH: 422,
  RECORD_FACTORS_INVALID: 422,
  RECORD_PERIOD_MONTH_INVALID: 422,
  RECORD_PERIOD_OUT_OF_RANGE: 422,
  RECORD_CLASSIFIER_INVALID: 422,
  RECORD_CLASSIFIER_REQUIRED: 422,
  RECORD_CLASSIFIER_ITEM_INVALID: 422,
  RECORD_CLASSIFIER_ITEM_UNSELECTABLE: 422,
  RECORD_MASTER_CLASSIFIER_MISSING: 422,
  RECORD_DOES_NOT_MATCH_SUB_BUDGET: 422,
  RECORD_REVERT_NOT_POSSIBLE: 422,
  IMPORT_NOT_FOUND: 404,
  // record imports (issue 11, points 4 and 5): the gzip body over its cap (compressed or
  // unpacked), a body that is not gzip JSON, an organisation without API usage, a budget that
  // takes no imports (a sum budget)
  IMPORT_BODY_TOO_LARGE: 413,
  IMPORT_BODY_INVALID: 400,
  API_USAGE_NOT_ALLOWED: 403,
  IMPORT_BUDGET_TYPE_INVALID: 422,
  // saved report views and column sets (spec 3, section 7): one name per menu a user sees
  STORED_SETTING_NAME_NOT_UNIQUE: 409,
  // live reports (issue 12, point 8): a user holds at most a few open change streams (tabs)
  LIVE_REPORT_STREAMS_EXCEEDED: 429,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export interface FieldIssue {
  path: string;
  message: string;
  code?: string;
}

/** Every error response body. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: unknown;
  requestId?: string;
}

/** A rule of the product was broken; carries a code from the catalogue above. */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;
  constructor(code: ErrorCode, message?: string, details?: unknown) {
    super(message ?? code);
    this.name = 'DomainError';
    this.code = code;
    this.details = details;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/**
 * A rule broken by one field of a command. Deciders name the field (`tags`,
 * `classifierList.0.classifierId`), never where it arrived: the gateway's error plugin answers it
 * as the request body's field (`body.tags`), since every command is built from a request body.
 */
export interface FieldRule {
  field: string;
  message: string;
}

/**
 * The detail lists made by `fieldError`/`fieldErrors`: only these are answered as body fields.
 * Other details may carry a `field` of their own meaning (INVALID_GROUPING names the grouping
 * classifier's field name, not a request field) and pass unchanged.
 */
const fieldRuleLists = new WeakSet<object>();

/** Several fields broken at once (all reported; the message is the first rule's unless given). */
export function fieldErrors(code: ErrorCode, rules: readonly FieldRule[], text?: string): DomainError {
  const details = rules.map(({ field, message }) => ({ field, message }) satisfies FieldRule);
  fieldRuleLists.add(details);
  return new DomainError(code, text ?? rules[0]?.message, details);
}

export function fieldError(code: ErrorCode, field: string, message: string, text?: string): DomainError {
  return fieldErrors(code, [{ field, message }], text ?? message);
}

/** Field rules (`{ field }`) become the API's field issues (`{ path: 'body.<field>' }`); other details pass as they are. */
export function answeredDetails(details: unknown): unknown {
  if (!Array.isArray(details) || !fieldRuleLists.has(details)) return details;
  return (details as FieldRule[]).map((detail) => ({ path: `body.${detail.field}`, message: detail.message }));
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in ERROR_STATUS;
}
