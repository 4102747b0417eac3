/** The product's name; the administration area lives at /{product}-settings (spec 1, section 2). */
export const PRODUCT_NAME = 'Eelarve';
export const PRODUCT_SLUG = 'eelarve';
export const ADMIN_ROUTE = `/${PRODUCT_SLUG}-settings`;

/** Response headers that carry the API's build (shown in the drawer footer). */
export const API_BUILD_TIME_HEADER = 'x-api-build-time';
export const API_REVISION_HEADER = 'x-api-revision';
export const API_VERSION_HEADER = 'x-api-version';
