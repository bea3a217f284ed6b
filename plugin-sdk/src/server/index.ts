/**
 * The server side of the plugin SDK: the only thing a module or plugin imports from the core.
 * @packageDocumentation
 */
export * from '../shared';
export * from './access';
export * from './administration';
export * from './ai-completion';
export * from './areas';
export * from './channel-contract';
export * from './claimed-rows';
export * from './connections';
export * from './context';
export * from './customer-texts';
export * from './define-plugin';
export * from './errors';
export * from './events';
export * from './file-lists';
export * from './flows';
export * from './mail';
export * from './manifest';
export * from './outbound-http';
export * from './owned-ids';
export * from './prepared-statements';
export * from './rows';
export * from './schemas';
export * from './statement-batcher';
export * from './streams';
export * from './tenancy';
export * from './tenant-transaction';
export * from './users';
