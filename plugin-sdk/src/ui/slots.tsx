import { type ComponentType, createContext, type ReactNode, useContext, useEffect } from 'react';
import type { Permission } from '../shared/permissions';
import type { AnyPlanFlag } from '../shared/plan-flags';
import type { ExtensionSlotName as SharedSlotName } from '../shared/slot-names';
import type { Language } from './languages';

/**
 * The UI's extension points (docs/plugin-authoring.md "UI slots"). This file is only the contract and the
 * mount point: which contributions a session gets, how each is isolated and when plugin remotes load are the
 * shell's, provided through `SlotHostContext`, so that the login page (which loads this SDK) carries none of
 * that machinery.
 */

/** A tag as a slot sees it on a ticket or a contact. */
export interface SlotTag {
  id: number;
  name: string;
  color: string;
}

/** The contact as a ticket carries it, in slot props. */
export interface SlotContactSummary {
  id: number;
  name: string;
  /** Masked for a profile user when the company hides numbers (LGPD). */
  number: string | null;
  email: string | null;
  urlPicture: string | null;
  isGroup: boolean;
  channel: string;
}

/** A ticket as slots receive it: the inbox's ticket record, as far as the contract promises it. */
export interface SlotTicket {
  id: number;
  uuid: string;
  /** `open`, `pending`, `closed`, `group` … (docs/product/tickets-and-inbox.md#states-and-transitions). */
  status: string;
  channel: string;
  isGroup: boolean;
  queueId: number | null;
  userId: number | null;
  contactId: number;
  contact: SlotContactSummary;
  whatsappId: number | null;
  lastMessage: string;
  unreadMessages: number;
  /** The ticket's tags and its contact's, without repeats; kept live by the inbox. */
  tags: SlotTag[];
  updatedAt: string;
}

/** A message of the ticket view as slots receive it. */
export interface SlotMessage {
  id: number;
  ticketId: number;
  /** `chat`, `audio`, `image`, `video`, `document` … */
  mediaType: string;
  /** The media's signed address (`/api/media/<token>`), or null without media. */
  mediaUrl: string | null;
  mediaName: string | null;
  fromMe: boolean;
  isPrivate: boolean;
}

/** A contact as the contact drawer shows it. */
export interface SlotContact extends SlotContactSummary {
  tags: SlotTag[];
}

/** The props each component slot hands to its contributions. */
export interface ComponentSlotProps {
  /**
   * Popovers and buttons of the top bar, after the greeting and before the theme toggle (the bell, the
   * announcements, the internal chat). `narrow` is true under 600 px, where the bar has little room.
   */
  topBar: { narrow: boolean };
  /** Buttons beside the ticket header's actions. */
  ticketHeaderActions: { ticket: SlotTicket };
  /** Sections of the contact drawer, after the contact's details and before its tags. */
  contactDrawer: { contact: SlotContact; ticket?: SlotTicket };
  /** Buttons of the composer's toolbar, after its emoji and attach buttons, before the text box. */
  composerToolbar: {
    ticket: SlotTicket;
    /** Appends text to the message being written (at the end, as the emoji picker does). */
    insertText(text: string): void;
    /** True while the composer can't send (a ticket that isn't open, a send in flight); hidden while recording. */
    disabled: boolean;
  };
  /**
   * Above the composer of a ticket, under its reply bar: what a channel says about what may be sent now (a
   * closed reply window) and its own way to send then (an approved template). Rendered for every ticket; a
   * contribution renders nothing where it has nothing to say.
   */
  composerNotice: { ticket: SlotTicket };
  /** Small tags on a ticket of the list, after its queue, user and tags. */
  ticketListItemBadges: { ticket: SlotTicket };
  /** Small actions under a message's content in the ticket view (not on deleted messages). */
  messageActions: { message: SlotMessage };
  /** Cards of the dashboard, below its tabs. `from`/`to` are the days chosen (YYYY-MM-DD). */
  dashboardCards: { range: { from: string; to: string } };
  /**
   * The Connections page's way to add a connection of a channel whose connections its platform's login makes
   * (Facebook, Instagram): rendered when that channel is chosen in the add menu, instead of the editor. A
   * contribution renders nothing for a channel it doesn't handle, and calls `onClose` when done.
   */
  connectionLogin: { channel: string; onClose(): void };
}

/** The names of the slots that render components with props. */
export type ComponentSlotName = keyof ComponentSlotProps;

/** Who a contribution shows to, checked the way the side menu checks its entries. */
export interface SlotGate {
  /** Shown only when the company's plan has this flag (a plugin's own flag is checked besides). */
  planFlag?: AnyPlanFlag;
  /** Shown only to holders of this permission (`can()` with the table the UI knows). */
  permission?: Permission;
  /** Shown only to the super user. */
  superOnly?: boolean;
}

/** A component a feature adds to a component slot. */
export interface SlotContribution<Props> extends SlotGate {
  /** Unique within the feature and slot: React's key and the name in error logs. */
  key: string;
  /** Rendered with the slot's props; it may be `lazy(...)` (it suspends inside its own boundary). */
  Component: ComponentType<Props>;
  /** Lower first; contributions without one come after, in feature order, then in their array's order. */
  order?: number;
}

/** A tab a feature adds to the Settings page (after the page's own tabs). */
export interface SettingsTabContribution extends SlotGate {
  key: string;
  /** The tab's title in every language. */
  label: Record<Language, string>;
  /** The tab's content, mounted when the tab is shown; it may be `lazy(...)`. */
  Component: ComponentType;
  order?: number;
}

/** What `definePluginUi({ slots })` takes for the extension points. */
export type ExtensionSlots = {
  [Name in ComponentSlotName]?: Array<SlotContribution<ComponentSlotProps[Name]>>;
} & {
  settingsTabs?: SettingsTabContribution[];
};

/** Every slot name a feature may fill besides the frame's `userMenu` (the shared list's names). */
export type ExtensionSlotName = SharedSlotName;

/** Fails to compile when the slot types and the shared list of names drift apart (a type only: no code ships). */
type SameNames<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<Check extends true> = Check;
export type SlotNamesAgree = Holds<SameNames<keyof ExtensionSlots, SharedSlotName>>;

/** One contribution as the shell hands it to a slot: already gated for this session, in order. */
export type SlotEntry<Name extends ExtensionSlotName> = NonNullable<ExtensionSlots[Name]>[number] & {
  /** The feature that contributed it. */
  featureId: string;
};

/** Props of the shell's wrapper around each contribution. */
export interface SlotMountProps {
  featureId: string;
  slot: ExtensionSlotName;
  contributionKey: string;
  /** Shown while a lazy contribution loads (nothing by default). */
  fallback?: ReactNode;
  children: ReactNode;
}

/** What the shell provides to every slot of the page. */
export interface SlotHost {
  /** The session's contributions of a slot, gated and ordered (empty while the plugins load). */
  entries<Name extends ExtensionSlotName>(name: Name): ReadonlyArray<SlotEntry<Name>>;
  /** The shell's error boundary and suspense around one contribution. */
  Mount: ComponentType<SlotMountProps>;
  /** Asks the shell to load the remotes of the plugins that declare this slot (each remote loads once). */
  request(name: ExtensionSlotName): void;
}

/** The shell's slot host; null outside the frame (a test page, the login), where slots render nothing. */
export const SlotHostContext = createContext<SlotHost | null>(null);

/**
 * The contributions a slot gets in this session, gated and ordered; rendering it asks the shell to load the
 * plugins' remotes, so a slot that is never shown costs no download. For slots whose entries the page lays
 * out itself (the Settings page's tabs); component slots use `<PluginSlot>`.
 */
export function useSlotEntries<Name extends ExtensionSlotName>(name: Name): ReadonlyArray<SlotEntry<Name>> {
  const host = useContext(SlotHostContext);
  useEffect(() => host?.request(name), [host, name]);
  return host ? host.entries(name) : [];
}

/**
 * The shell's error boundary and suspense around one entry a page lays out itself (a Settings tab); outside
 * the frame it renders its children as they are.
 */
export function PluginSlotMount(props: SlotMountProps): ReactNode {
  const host = useContext(SlotHostContext);
  if (!host) return props.children;
  const { Mount } = host;
  return <Mount {...props} />;
}

/** Props of `PluginSlot`. */
export interface PluginSlotProps<Name extends ComponentSlotName> {
  name: Name;
  props: ComponentSlotProps[Name];
  /** Shown in a contribution's place while it loads (nothing by default). */
  fallback?: ReactNode;
}

/**
 * Renders a slot's contributions with its props, each in its own error boundary and suspense: one that
 * throws renders nothing (and is logged) without touching the page or the others.
 *
 * @example
 * <PluginSlot name="ticketHeaderActions" props={{ ticket }} />
 */
export function PluginSlot<Name extends ComponentSlotName>({ name, props, fallback }: PluginSlotProps<Name>): ReactNode {
  const host = useContext(SlotHostContext);
  const entries = useSlotEntries(name);
  if (!host || entries.length === 0) return null;
  const { Mount } = host;
  return entries.map((entry) => {
    const Component = entry.Component as ComponentType<ComponentSlotProps[Name]>;
    return (
      <Mount
        key={`${entry.featureId}:${entry.key}`}
        featureId={entry.featureId}
        slot={name}
        contributionKey={entry.key}
        fallback={fallback}
      >
        <Component {...props} />
      </Mount>
    );
  });
}
