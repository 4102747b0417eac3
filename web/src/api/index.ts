export { FRONT_END_INFO, type ApiInfo, useApiInfo } from './api-info';
export { api, apiRequest, type RequestOptions, setUnauthorizedHandler } from './client';
export { ApiError, type ApiErrorCode, errorCodeOf, isApiError } from './errors';
export { createQueryClient } from './query-client';
