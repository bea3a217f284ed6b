/**
 * The widget's styles, inside its Shadow DOM (the page's CSS can't reach in, ours can't leak out).
 * Theming: the page sets these custom properties on the host element (they inherit into the shadow
 * tree): --bk-bg, --bk-fg, --bk-muted, --bk-lane, --bk-card, --bk-border, --bk-accent, --bk-unread,
 * --bk-radius, --bk-font, --bk-lane-width.
 */
export const WIDGET_CSS = `
:host { display: block; height: 100%; min-height: 320px; contain: content;
  --_bg: var(--bk-bg, #ffffff); --_fg: var(--bk-fg, #1f1f1f); --_muted: var(--bk-muted, #8c8c8c);
  --_lane: var(--bk-lane, #f5f5f5); --_card: var(--bk-card, #ffffff); --_border: var(--bk-border, #e5e5e5);
  --_accent: var(--bk-accent, #1677ff); --_unread: var(--bk-unread, #52c41a); --_radius: var(--bk-radius, 8px);
  --_font: var(--bk-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif); --_lane-width: var(--bk-lane-width, 280px); }
:host([data-theme="dark"]) { --_bg: var(--bk-bg, #141414); --_fg: var(--bk-fg, #f0f0f0); --_muted: var(--bk-muted, #a6a6a6);
  --_lane: var(--bk-lane, #1f1f1f); --_card: var(--bk-card, #262626); --_border: var(--bk-border, #383838);
  --_accent: var(--bk-accent, #4096ff); }
* { box-sizing: border-box; }
.board { display: flex; gap: 12px; height: 100%; overflow-x: auto; padding: 8px; background: var(--_bg); color: var(--_fg);
  font: 14px/1.4 var(--_font); }
.lane { flex: 0 0 var(--_lane-width); display: flex; flex-direction: column; background: var(--_lane); border-radius: var(--_radius);
  border-top: 4px solid var(--lane-color, var(--_muted)); min-height: 0; }
.lane.over { outline: 2px dashed var(--_accent); outline-offset: -2px; }
.lane-head { display: flex; justify-content: space-between; gap: 8px; padding: 8px 10px; font-weight: 600; }
.lane-head span:last-child { color: var(--_muted); font-weight: 400; white-space: nowrap; }
.lane-body { position: relative; flex: 1; overflow-y: auto; min-height: 0; }
.spacer { position: relative; }
.row { position: absolute; left: 0; right: 0; padding: 0 8px 8px; }
.card { height: 100%; background: var(--_card); border: 1px solid var(--_border); border-radius: var(--_radius); padding: 8px 10px;
  display: flex; flex-direction: column; gap: 2px; overflow: hidden; }
.card[draggable="true"] { cursor: grab; }
.card.moving { opacity: 0.45; }
.card.placeholder { background: transparent; border-style: dashed; }
.card.unread { border-color: var(--_unread); box-shadow: inset 3px 0 0 var(--_unread); }
.top, .bottom { display: flex; justify-content: space-between; align-items: center; gap: 6px; }
.name { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.muted { color: var(--_muted); font-size: 12px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.msg { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.badge { background: var(--_unread); color: #fff; border-radius: 10px; padding: 0 6px; font-size: 12px; }
.user { background: color-mix(in srgb, var(--_accent) 15%, transparent); color: var(--_accent); border-radius: 4px; padding: 0 6px;
  font-size: 12px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; max-width: 60%; }
button.open { font: inherit; font-size: 12px; border: 1px solid var(--_accent); color: var(--_accent); background: transparent;
  border-radius: 4px; padding: 1px 8px; cursor: pointer; }
.empty, .status { color: var(--_muted); padding: 16px; text-align: center; }
.notice { position: sticky; left: 0; margin: 0 8px 8px; padding: 8px 12px; border-radius: var(--_radius);
  background: color-mix(in srgb, #ff4d4f 12%, var(--_bg)); color: var(--_fg); font: 13px var(--_font); }
`;
