import type { ChannelsArea } from '../index';

/** The lifecycle area (filled by its issue-5 work). */
export const lifecycleArea: ChannelsArea = {};
