const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a caller-given id can name a row at all. A value that is not a UUID is an unknown
 * resource (404), and is never handed to a `uuid` column, where PostgreSQL would refuse the cast.
 */
export const isUuid = (value: string): boolean => UUID.test(value);
