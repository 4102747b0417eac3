import { type ErrorCode, type FieldIssue, isErrorCode } from '@eelarve/shared';

/** Codes the browser itself produces when there is no usable server answer. */
export type ClientErrorCode = 'NETWORK_ERROR' | 'UNKNOWN';
export type ApiErrorCode = ErrorCode | ClientErrorCode;

/** A failed API call: the HTTP status (0 when the server was not reached) and the server's error code. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly details?: unknown;

  constructor(status: number, code: ApiErrorCode, message?: string, details?: unknown) {
    super(message ?? code);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /** Field issues of a SCHEMA_VALIDATION_ERROR (`[{ path, message }]`), empty otherwise. */
  get fieldIssues(): FieldIssue[] {
    if (!Array.isArray(this.details)) return [];
    return this.details.filter(
      (issue): issue is FieldIssue => typeof issue === 'object' && issue !== null && typeof issue.path === 'string' && typeof issue.message === 'string',
    );
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The code to translate for any thrown value. */
export function errorCodeOf(error: unknown): ApiErrorCode {
  return isApiError(error) ? error.code : 'UNKNOWN';
}

/** A code for a response whose body carries none (a proxy's HTML error page, for instance). */
export function codeForStatus(status: number, bodyCode: unknown): ApiErrorCode {
  if (isErrorCode(bodyCode)) return bodyCode;
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 403) return 'INSUFFICIENT_PERMISSIONS';
  if (status === 404) return 'OBJECT_NOT_FOUND';
  if (status === 409) return 'CONCURRENT_MODIFICATION';
  if (status === 503 || status === 502 || status === 504) return 'SERVICE_UNAVAILABLE';
  if (status >= 500) return 'INTERNAL_ERROR';
  return 'UNKNOWN';
}
