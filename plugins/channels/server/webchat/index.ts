import type { ChannelsArea } from '../index';

/** The webchat area (filled by its issue-5 work). */
export const webchatArea: ChannelsArea = {};
