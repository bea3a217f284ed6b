import { definePluginOfAreas, type FeatureArea } from '@balcao/plugin-sdk/server';
import { behavioursArea } from './behaviours';
import { connectionsArea } from './connections';
import { lifecycleArea } from './lifecycle';
import { profileArea } from './profile';
import { webchatArea } from './webchat';
import { whatsappArea } from './whatsapp';

/**
 * One part of the channels plugin, in its own folder: connections (the entity, its routes, the driver
 * registry), profile (the `connections` service other features read), behaviours (how every channel's conversations start: greeting,
 * hours, vacation, LGPD), lifecycle (how they go on and end: farewell, rating, inactivity, expiry,
 * redirect, reopen window), webchat (the website channel and its widget's
 * public API) and whatsapp (the WhatsApp channel on Baileys).
 */
export type ChannelsArea = FeatureArea;

/** Channels (docs/architecture.md#the-channels-plugin; docs/product/administration.md#connections, #entities, #states-and-transitions, #validation, #calls-and-realtime-events). */
export default definePluginOfAreas('channels', [
  profileArea,
  connectionsArea,
  behavioursArea,
  lifecycleArea,
  webchatArea,
  whatsappArea,
]);
