/**
 * Types, data and pure functions that the server and the browser share: plan flags, permissions,
 * error codes, the session shape and the plugin listing.
 */
export * from './api-keys';
export * from './chat-markup';
export * from './connection-profile';
export * from './errors';
export * from './origin';
export * from './permissions';
export * from './plan-flags';
export * from './realtime';
export * from './service-hours';
export * from './session';
export * from './slot-names';

/** The version shown in the menu and answered by `GET /version` (docs/product/tickets-and-inbox.md#constants-and-limits). */
export const PRODUCT_VERSION = '4.2.0';

/** The semver version of the plugin SDK contract; plugins declare a range against it. */
export const SDK_VERSION = '1.23.0';
