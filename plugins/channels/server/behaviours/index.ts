import type { ChannelsArea } from '../index';

/** The behaviours area (filled by its issue-5 work). */
export const behavioursArea: ChannelsArea = {};
