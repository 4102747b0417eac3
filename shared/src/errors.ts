/**
 * The server's error codes (spec 1, 2 and 3, section 8). The web translates each code
 * (message id `error.<CODE>`); the HTTP status is part of the contract because ERP jobs and
 * scripts read it.
 */
export const ERROR_STATUS = {
  // generic
  SCHEMA_VALIDATION_ERROR: 400,
  MULTIPART_FORM_ERROR: 400,
  UNAUTHORIZED: 401,
  INSUFFICIENT_PERMISSIONS: 403,
  OBJECT_NOT_FOUND: 404,
  CONCURRENT_MODIFICATION: 409,
  PERMISSIONS_CHAIN_INVALID: 422,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
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

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in ERROR_STATUS;
}
