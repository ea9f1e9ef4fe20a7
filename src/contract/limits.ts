// Byte limits the service enforces and the reconciler checks before it sends anything. This module imports
// neither side (design: The import wall).

/** The largest request body (POST, PATCH, PUT) the service reads; a larger one is refused with 413. */
export const REQUEST_BODY_MAX_BYTES = 1024 * 1024;
