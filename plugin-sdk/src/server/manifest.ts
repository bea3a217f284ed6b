import Type, { type Static } from 'typebox';
import { PLAN_FLAG_PATTERN } from '../shared/plan-flags';
import { EXTENSION_SLOT_NAMES } from '../shared/slot-names';

const Label = Type.Object(
  { pt: Type.String(), en: Type.String(), es: Type.String(), tr: Type.String() },
  { additionalProperties: false },
);

/** A side-menu entry declared in a plugin's manifest (shown without downloading the plugin's code). */
export const ManifestMenuEntry = Type.Object(
  {
    key: Type.String({ pattern: '^[a-z0-9-]+$' }),
    group: Type.Union([Type.Literal('management'), Type.Literal('main'), Type.Literal('admin')]),
    path: Type.String({ pattern: '^/' }),
    icon: Type.Optional(Type.String()),
    label: Label,
    permission: Type.Optional(Type.String()),
    superOnly: Type.Optional(Type.Boolean()),
    order: Type.Optional(Type.Number()),
    // the plugin's UI computes a badge for it (definePluginUi menuBadges): its remote loads after login
    badge: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/**
 * The `balcao` field of a module's or plugin's package.json: what the loader reads before importing any
 * of its code.
 */
export const PluginManifest = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z][a-z0-9-]{1,39}$' }),
    /** `module` (always on, UI bundled in the host) or `plugin` (UI as a federated remote). */
    kind: Type.Union([Type.Literal('module'), Type.Literal('plugin')]),
    /** Semver range of the SDK this feature was written against. */
    sdk: Type.String(),
    /** One of the ten plan flags, or the plugin's own (then `planFlagLabel` names it). */
    planFlag: Type.Optional(Type.String({ pattern: PLAN_FLAG_PATTERN })),
    /** The label of the plugin's own plan flag on the Plans page; only for a flag that isn't one of the ten. */
    planFlagLabel: Type.Optional(Label),
    dependsOn: Type.Optional(Type.Array(Type.String())),
    /** Server entry, relative to the package root (default `server/index.ts`). */
    server: Type.Optional(Type.String()),
    /** UI of a plugin: its exposed entry, routes and menu entries. */
    ui: Type.Optional(
      Type.Object(
        {
          entry: Type.String(),
          routes: Type.Array(Type.Object({ path: Type.String({ pattern: '^/' }) }, { additionalProperties: false })),
          menu: Type.Array(ManifestMenuEntry),
          /**
           * The UI slots its entry fills (docs/plugin-authoring.md "UI slots"): the shell downloads the remote
           * when one of these first shows, and ignores contributions to slots not listed.
           */
          slots: Type.Optional(Type.Array(Type.Union(EXTENSION_SLOT_NAMES.map((name) => Type.Literal(name))))),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** A validated manifest. */
export type PluginManifest = Static<typeof PluginManifest>;
