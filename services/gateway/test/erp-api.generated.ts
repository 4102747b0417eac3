// Regenerate: npx vitest run services/gateway/test/erp-client.test.ts -u
export interface paths {
  '/budgets/{budgetId}/import': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** An ERP job imports records into a monitoring budget (gzip JSON, HTTP Basic with the budget's API key) */
    post: operations['postBudgetsImport'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/budgets/{budgetId}/import/status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The status of the monitoring budget's latest import, for its ERP job */
    get: operations['getBudgetsImportStatus'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    Error: {
      /** @enum {string} */
      code:
        | 'SCHEMA_VALIDATION_ERROR'
        | 'MULTIPART_FORM_ERROR'
        | 'FILE_TOO_LARGE'
        | 'TOO_MANY_PARTS'
        | 'SPREADSHEET_TOO_LARGE'
        | 'IMPORT_TOO_MANY_ROWS'
        | 'UNAUTHORIZED'
        | 'INSUFFICIENT_PERMISSIONS'
        | 'OBJECT_NOT_FOUND'
        | 'CONCURRENT_MODIFICATION'
        | 'PERMISSIONS_CHAIN_INVALID'
        | 'INTERNAL_ERROR'
        | 'SERVICE_UNAVAILABLE'
        | 'TASK_INTERRUPTED'
        | 'INVALID_USERNAME_OR_PASSWORD'
        | 'INVALID_CURRENT_PASSWORD'
        | 'ENTER_MFA_CODE'
        | 'INVALID_MFA_CODE'
        | 'MFA_NOT_INITIALIZED'
        | 'MFA_ALREADY_SET_UP'
        | 'MFA_NOT_SET_UP'
        | 'MFA_NOT_AVAILABLE'
        | 'EMAIL_NOT_CONFIRMED'
        | 'EMAIL_IN_USE'
        | 'INVALID_OR_EXPIRED_TOKEN'
        | 'PASSWORD_NOT_STRONG'
        | 'USER_NOT_FOUND'
        | 'SESSION_TOO_LONG'
        | 'TOO_MANY_ATTEMPTS'
        | 'CROSS_SITE_REQUEST'
        | 'EXTERNAL_AUTH_COOKIE_FAILED'
        | 'ELECTRONIC_ID_FAILED'
        | 'OCCUPATION_NOT_FOUND'
        | 'ROLE_NOT_FOUND'
        | 'USER_ALREADY_ALLOCATED'
        | 'INVALID_USER_OR_ROLE'
        | 'ROLE_MAPPED_TO_OCCUPATION'
        | 'ROLE_RESERVED'
        | 'ROLE_NOT_MODIFIABLE'
        | 'ROLE_NAME_NOT_UNIQUE'
        | 'CURRENT_OCCUPATION_CANNOT_BE_REMOVED'
        | 'ADMIN_ALREADY_SET'
        | 'ADMIN_NOT_SET'
        | 'USER_HAS_OCCUPATION'
        | 'USER_NOT_MODIFIABLE'
        | 'OCCUPATION_NOT_MODIFIABLE'
        | 'UNSUITABLE_USER'
        | 'UNSUITABLE_OCCUPATION'
        | 'UNSUITABLE_ROLE'
        | 'ORGANIZATION_NOT_FOUND'
        | 'ORGANIZATION_IN_USE'
        | 'ORGANIZATION_UNSUITABLE'
        | 'RESOURCE_STATUSES_CANNOT_BE_DISABLED'
        | 'RESOURCE_STATUSES_NOT_ENABLED'
        | 'RESOURCE_STATUS_NOT_FOUND'
        | 'RESOURCE_STATUS_READ_ONLY'
        | 'RESOURCE_STATUS_EDITING_DISABLED'
        | 'RESOURCE_STATUS_RULE_MIXES_OVERRIDES'
        | 'RESOURCE_STATUS_ALREADY_DEFAULT'
        | 'RESOURCE_STATUS_HAS_NO_DEFAULT'
        | 'ACTION_DISALLOWED_DUE_TO_STATUS'
        | 'RESOURCE_STATUS_IN_USE'
        | 'APPROVAL_ACTION_NOT_ALLOWED'
        | 'APPROVAL_SELF_APPROVAL_NOT_ALLOWED'
        | 'APPROVAL_STATE_INVALID'
        | 'APPROVAL_RULE_MIXES_ALLOWANCES'
        | 'DOCUMENT_PERIOD_UPDATE_RESTRICTED'
        | 'INVALID_MASTER_CLASSIFIER'
        | 'MASTER_CLASSIFIER_USED_IN_SCHEME'
        | 'MASTER_CLASSIFIER_MUST_BE_REQUIRED'
        | 'SCHEME_NOT_FOUND'
        | 'SCHEME_NAME_NOT_UNIQUE'
        | 'SCHEME_FIELD_NAME_NOT_UNIQUE'
        | 'LAST_SCHEME'
        | 'SCHEME_HAS_SUB_BUDGETS'
        | 'SCHEME_HAS_NO_CLASSIFIERS'
        | 'CLASSIFIER_MISSING'
        | 'DOCUMENT_MISSING_MASTER_CLASSIFIER'
        | 'SUB_BUDGET_NOT_FOUND'
        | 'SUB_BUDGET_NOT_UNIQUE'
        | 'MAIN_CLASSIFIER_NOT_SELECTED'
        | 'SUB_BUDGET_CLASSIFIER_VALUE_INVALID'
        | 'SUB_BUDGET_HAS_RECORDS'
        | 'SUB_BUDGET_IMPORT_INVALID'
        | 'BUDGET_NOT_FOUND'
        | 'BUDGET_TYPE_IMMUTABLE'
        | 'BUDGET_NOT_MONITORING'
        | 'BUDGET_USED_AS_SUM_COMPONENT'
        | 'BUDGET_COPY_INVALID_SCHEME_PARAMETERS'
        | 'COPY_PART_NOT_AVAILABLE'
        | 'SUM_BUDGET_NO_COMPONENTS'
        | 'SUM_BUDGET_SELF_REFERENCE'
        | 'SUM_BUDGET_CYCLE'
        | 'SUM_BUDGET_COMPONENT_NOT_FOUND'
        | 'COMPONENT_ALREADY_IN_USE'
        | 'COMPONENT_READ_DISABLED_BY_STATUS'
        | 'CLASSIFIER_NOT_FOUND'
        | 'CLASSIFIER_ITEM_NOT_FOUND'
        | 'CLASSIFIER_MIN_GREATER_THAN_MAX'
        | 'CLASSIFIER_HAS_GROUPED_BY'
        | 'CLASSIFIER_HAS_ITEMS'
        | 'CODE_TYPE_BLOCKED_BY_ITEMS'
        | 'INVALID_CODE'
        | 'CLASSIFIER_IN_USE'
        | 'ITEM_IN_USE'
        | 'ITEM_CODE_IN_USE'
        | 'ONLY_GROUPING_CAN_CHANGE_SIGN'
        | 'HAS_SIGN_CHANGING_ITEMS'
        | 'LENGTH_CONFLICTS_WITH_CODES'
        | 'CANNOT_BE_REQUIRED'
        | 'NOT_USED_IN_ALL_RECORDS'
        | 'INVALID_GROUPING'
        | 'INVALID_PRIMARY_GROUPING'
        | 'FIELD_NAME_NOT_UNIQUE'
        | 'CLASSIFIER_IMPORT_INVALID'
        | 'RECORD_NOT_FOUND'
        | 'RECORD_ID_INVALID'
        | 'RECORD_NAME_TOO_LONG'
        | 'RECORD_FACTORS_MISMATCH'
        | 'RECORD_FACTORS_INVALID'
        | 'RECORD_PERIOD_MONTH_INVALID'
        | 'RECORD_PERIOD_OUT_OF_RANGE'
        | 'RECORD_CLASSIFIER_INVALID'
        | 'RECORD_CLASSIFIER_REQUIRED'
        | 'RECORD_CLASSIFIER_ITEM_INVALID'
        | 'RECORD_CLASSIFIER_ITEM_UNSELECTABLE'
        | 'RECORD_MASTER_CLASSIFIER_MISSING'
        | 'RECORD_DOES_NOT_MATCH_SUB_BUDGET'
        | 'RECORD_REVERT_NOT_POSSIBLE'
        | 'IMPORT_NOT_FOUND'
        | 'IMPORT_BODY_TOO_LARGE'
        | 'IMPORT_BODY_INVALID'
        | 'API_USAGE_NOT_ALLOWED'
        | 'IMPORT_BUDGET_TYPE_INVALID'
        | 'STORED_SETTING_NAME_NOT_UNIQUE'
        | 'LIVE_REPORT_STREAMS_EXCEEDED';
      details?: unknown;
      message: string;
      requestId?: string;
    };
  };
  responses: {
    /** @description The request does not match its schema; `details` lists each field (path and message key). Codes: SCHEMA_VALIDATION_ERROR, MULTIPART_FORM_ERROR, RECORD_ID_INVALID, IMPORT_BODY_INVALID. */
    BadRequest: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The request conflicts with the current state; read it again and retry. Codes: CONCURRENT_MODIFICATION, EMAIL_IN_USE, USER_ALREADY_ALLOCATED, ROLE_NAME_NOT_UNIQUE, ADMIN_ALREADY_SET, APPROVAL_STATE_INVALID, SCHEME_NAME_NOT_UNIQUE, SCHEME_FIELD_NAME_NOT_UNIQUE, SUB_BUDGET_NOT_UNIQUE, ITEM_CODE_IN_USE, FIELD_NAME_NOT_UNIQUE, STORED_SETTING_NAME_NOT_UNIQUE. */
    Conflict: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The caller may not do this (privileges, grants, status, cross-site request). Codes: INSUFFICIENT_PERMISSIONS, ENTER_MFA_CODE, EMAIL_NOT_CONFIRMED, CROSS_SITE_REQUEST, RESOURCE_STATUSES_NOT_ENABLED, RESOURCE_STATUS_EDITING_DISABLED, ACTION_DISALLOWED_DUE_TO_STATUS, APPROVAL_ACTION_NOT_ALLOWED, APPROVAL_SELF_APPROVAL_NOT_ALLOWED, API_USAGE_NOT_ALLOWED. */
    Forbidden: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The resource does not exist or the caller may not see it (both answer alike). Codes: OBJECT_NOT_FOUND, USER_NOT_FOUND, OCCUPATION_NOT_FOUND, ROLE_NOT_FOUND, ORGANIZATION_NOT_FOUND, RESOURCE_STATUS_NOT_FOUND, SCHEME_NOT_FOUND, SUB_BUDGET_NOT_FOUND, BUDGET_NOT_FOUND, CLASSIFIER_NOT_FOUND, CLASSIFIER_ITEM_NOT_FOUND, RECORD_NOT_FOUND, IMPORT_NOT_FOUND. */
    NotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The body or file is over its limit. Codes: FILE_TOO_LARGE, TOO_MANY_PARTS, IMPORT_BODY_TOO_LARGE. */
    PayloadTooLarge: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description No valid session or credentials. Codes: UNAUTHORIZED, INVALID_USERNAME_OR_PASSWORD, ELECTRONIC_ID_FAILED. */
    Unauthorized: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description Any other error: too many attempts, an internal error, or the service is unavailable (see Retry-After). Codes: INTERNAL_ERROR, SERVICE_UNAVAILABLE, TASK_INTERRUPTED, TOO_MANY_ATTEMPTS, EXTERNAL_AUTH_COOKIE_FAILED, LIVE_REPORT_STREAMS_EXCEEDED. */
    UnexpectedError: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The request breaks a business rule. Codes: SPREADSHEET_TOO_LARGE, IMPORT_TOO_MANY_ROWS, PERMISSIONS_CHAIN_INVALID, INVALID_CURRENT_PASSWORD, INVALID_MFA_CODE, MFA_NOT_INITIALIZED, MFA_ALREADY_SET_UP, MFA_NOT_SET_UP, MFA_NOT_AVAILABLE, INVALID_OR_EXPIRED_TOKEN, PASSWORD_NOT_STRONG, SESSION_TOO_LONG, INVALID_USER_OR_ROLE, ROLE_MAPPED_TO_OCCUPATION, ROLE_RESERVED, ROLE_NOT_MODIFIABLE, CURRENT_OCCUPATION_CANNOT_BE_REMOVED, ADMIN_NOT_SET, USER_HAS_OCCUPATION, USER_NOT_MODIFIABLE, OCCUPATION_NOT_MODIFIABLE, UNSUITABLE_USER, UNSUITABLE_OCCUPATION, UNSUITABLE_ROLE, ORGANIZATION_IN_USE, ORGANIZATION_UNSUITABLE, RESOURCE_STATUSES_CANNOT_BE_DISABLED, RESOURCE_STATUS_READ_ONLY, RESOURCE_STATUS_RULE_MIXES_OVERRIDES, RESOURCE_STATUS_ALREADY_DEFAULT, RESOURCE_STATUS_HAS_NO_DEFAULT, RESOURCE_STATUS_IN_USE, APPROVAL_RULE_MIXES_ALLOWANCES, DOCUMENT_PERIOD_UPDATE_RESTRICTED, INVALID_MASTER_CLASSIFIER, MASTER_CLASSIFIER_USED_IN_SCHEME, MASTER_CLASSIFIER_MUST_BE_REQUIRED, LAST_SCHEME, SCHEME_HAS_SUB_BUDGETS, SCHEME_HAS_NO_CLASSIFIERS, CLASSIFIER_MISSING, DOCUMENT_MISSING_MASTER_CLASSIFIER, MAIN_CLASSIFIER_NOT_SELECTED, SUB_BUDGET_CLASSIFIER_VALUE_INVALID, SUB_BUDGET_HAS_RECORDS, SUB_BUDGET_IMPORT_INVALID, BUDGET_TYPE_IMMUTABLE, BUDGET_NOT_MONITORING, BUDGET_USED_AS_SUM_COMPONENT, BUDGET_COPY_INVALID_SCHEME_PARAMETERS, COPY_PART_NOT_AVAILABLE, SUM_BUDGET_NO_COMPONENTS, SUM_BUDGET_SELF_REFERENCE, SUM_BUDGET_CYCLE, SUM_BUDGET_COMPONENT_NOT_FOUND, COMPONENT_ALREADY_IN_USE, COMPONENT_READ_DISABLED_BY_STATUS, CLASSIFIER_MIN_GREATER_THAN_MAX, CLASSIFIER_HAS_GROUPED_BY, CLASSIFIER_HAS_ITEMS, CODE_TYPE_BLOCKED_BY_ITEMS, INVALID_CODE, CLASSIFIER_IN_USE, ITEM_IN_USE, ONLY_GROUPING_CAN_CHANGE_SIGN, HAS_SIGN_CHANGING_ITEMS, LENGTH_CONFLICTS_WITH_CODES, CANNOT_BE_REQUIRED, NOT_USED_IN_ALL_RECORDS, INVALID_GROUPING, INVALID_PRIMARY_GROUPING, CLASSIFIER_IMPORT_INVALID, RECORD_NAME_TOO_LONG, RECORD_FACTORS_MISMATCH, RECORD_FACTORS_INVALID, RECORD_PERIOD_MONTH_INVALID, RECORD_PERIOD_OUT_OF_RANGE, RECORD_CLASSIFIER_INVALID, RECORD_CLASSIFIER_REQUIRED, RECORD_CLASSIFIER_ITEM_INVALID, RECORD_CLASSIFIER_ITEM_UNSELECTABLE, RECORD_MASTER_CLASSIFIER_MISSING, RECORD_DOES_NOT_MATCH_SUB_BUDGET, RECORD_REVERT_NOT_POSSIBLE, IMPORT_BUDGET_TYPE_INVALID. */
    UnprocessableEntity: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
  };
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  postBudgetsImport: {
    parameters: {
      query?: {
        originResourceName?: string;
      };
      header?: never;
      path: {
        budgetId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          importId?: string;
          list: {
            amount?: (string | null) | number;
            /** @default {} */
            classifiers?: {
              [key: string]: (string | null) | number;
            };
            month?: (string | null) | number;
            months?: ((string | null) | number)[] | null;
            name?: string | null;
            year?: (string | null) | number;
          }[];
        };
      };
    };
    responses: {
      /** @description Default Response */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            /** @enum {string} */
            status: 'UNPROCESSED' | 'PROCESSING' | 'SUCCESS' | 'ERROR';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['UnprocessableEntity'];
      default: components['responses']['UnexpectedError'];
    };
  };
  getBudgetsImportStatus: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        budgetId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            createdAt: string;
            extra: {
              originResourceName: string;
            };
            id: string;
            result: {
              criticalErrorsCount: number;
              recordsInserted: number;
              totalErrorsCount: number;
            } | null;
            /** @enum {string} */
            status: 'UNPROCESSED' | 'PROCESSING' | 'SUCCESS' | 'ERROR';
            updatedAt: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      default: components['responses']['UnexpectedError'];
    };
  };
}
