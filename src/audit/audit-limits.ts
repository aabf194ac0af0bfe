/** A page of `GET /v1/audit` and `evident audit`: 50 entries unless asked, at most 200. */
export const DEFAULT_AUDIT_LIMIT = 50;
export const MAX_AUDIT_LIMIT = 200;
