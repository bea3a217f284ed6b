import type { ChannelConfigScope, ChannelDriver, PlanFlag, PluginContext } from '@balcao/plugin-sdk/server';

/** The status values of a connection (docs/product/administration.md#states-and-transitions). */
export type ConnectionStatus = 'qrcode' | 'PAIRING' | 'DISCONNECTED' | 'TIMEOUT' | 'OPENING' | 'CONNECTED';

/** A connection as a channel sees it when asked to start, stop or check it. */
export interface ChannelConnection {
  id: number;
  companyId: number;
  name: string;
  channel: string;
  status: ConnectionStatus;
  /** The channel's own settings (`whatsapps.channelConfig`), as `prepareConfig` left them. */
  channelConfig: Record<string, unknown>;
}

/**
 * A channel of the channels plugin (docs/architecture.md#the-channels-plugin): its name, the plan flag that allows it, its
 * connection life cycle, and the inbox's outbound driver. WhatsApp and webchat each register one with
 * `registerChannel`; a channel without one (Facebook, Instagram) can't be started.
 */
export interface ChannelDefinition {
  /** The `channel` value of its connections: `whatsapp`, `whatsappapi`, `facebook`, `instagram`, `webchat`. */
  channel: string;
  /** Checked on the server when a connection of this channel is created or started; none: every plan. */
  planFlag?: PlanFlag;
  /**
   * The channel's settings of a connection being created or saved: validate `input` (throw an AppError with
   * an `ERR_...` code), fill defaults and generated secrets (kept from `previous` unless asked to
   * regenerate). The result is stored in `whatsapps.channelConfig`.
   */
  prepareConfig?(
    input: Record<string, unknown>,
    previous: Record<string, unknown> | null,
    scope: ChannelConfigScope,
  ): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** What of `channelConfig` an admin may see (secrets included: it is their company's). Default: all. */
  publicConfig?(config: Record<string, unknown>): Record<string, unknown>;
  /** Starts the connection's session (or marks it ready); resolves to its new status. */
  start(ctx: PluginContext, connection: ChannelConnection): Promise<ConnectionStatus>;
  /** Ends the session; resolves to its new status (normally DISCONNECTED). */
  stop(ctx: PluginContext, connection: ChannelConnection): Promise<ConnectionStatus>;
  /** A new pairing (new QR for WhatsApp); default: stop then start. */
  restart?(ctx: PluginContext, connection: ChannelConnection): Promise<ConnectionStatus>;
  /**
   * Reconnects with the pairing it has (`POST /whatsapp-restart/`: every connection comes back, none is
   * logged out); default: `restart`.
   */
  reconnect?(ctx: PluginContext, connection: ChannelConnection): Promise<ConnectionStatus>;
  /** Pairs by phone number instead of a QR code (WhatsApp); channels without it refuse. */
  pair?(ctx: PluginContext, connection: ChannelConnection, number: string): Promise<ConnectionStatus>;
  /**
   * The channel writes its connections' statuses itself as its sessions move (`updateConnectionStatus`),
   * also in the actions: the session actions then don't write the status they answer, which could overwrite
   * a newer one (a QR code that arrived first).
   */
  managesStatus?: boolean;
  /** The connection is being deleted: drop its session and keys. */
  remove?(ctx: PluginContext, connection: ChannelConnection): Promise<void>;
  /** The inbox's outbound side (send, edit, delete, react, mark read, profile picture). */
  driver: ChannelDriver;
}

/** The channels of a running app, by name. */
export class ChannelRegistry {
  private readonly channels = new Map<string, ChannelDefinition>();

  register(definition: ChannelDefinition): void {
    if (this.channels.has(definition.channel)) throw new Error(`channel '${definition.channel}' is already registered`);
    this.channels.set(definition.channel, definition);
  }

  /** Removes a channel's definition, only if it is still the one registered. */
  unregister(definition: ChannelDefinition): void {
    if (this.channels.get(definition.channel) === definition) this.channels.delete(definition.channel);
  }

  get(channel: string): ChannelDefinition | undefined {
    return this.channels.get(channel);
  }

  list(): ChannelDefinition[] {
    return [...this.channels.values()];
  }
}

const registries = new WeakMap<object, ChannelRegistry>();

/**
 * The channel registry of an app (one per app, keyed by its inbox service so that two apps in one test
 * process don't share channels).
 */
export function channelRegistry(ctx: PluginContext): ChannelRegistry {
  const key = ctx.services.use('inbox');
  let registry = registries.get(key);
  if (!registry) {
    registry = new ChannelRegistry();
    registries.set(key, registry);
  }
  return registry;
}

/**
 * Registers a channel: its definition for connections and its driver with the inbox. Call it from an area's
 * `register`. Returns the function that unregisters both (from its area's `close`).
 */
export function registerChannel(ctx: PluginContext, definition: ChannelDefinition): () => void {
  const registry = channelRegistry(ctx);
  registry.register(definition);
  const unregisterDriver = ctx.services.use('inbox').registerDriver(definition.channel, definition.driver);
  return () => {
    unregisterDriver();
    registry.unregister(definition);
  };
}
