/**
 * The chat window's styles, inside the widget's Shadow DOM (the page's CSS can't reach in, ours can't
 * leak out). The connection's colour arrives as --bc-accent (and --bc-on-accent, readable on it); the
 * theme as the host's data-theme (light, dark, auto = the visitor's system setting).
 */
export const WINDOW_CSS = `
:host{--bc-bg:#fff;--bc-fg:#1f1f1f;--bc-muted:#6b6b6b;--bc-theirs:#f0f2f5;--bc-border:#e3e3e3;--bc-error:#c62828}
:host([data-theme=dark]){--bc-bg:#1b1b1f;--bc-fg:#ececec;--bc-muted:#a3a3a3;--bc-theirs:#2a2a30;--bc-border:#3a3a40;--bc-error:#ff6b6b}
@media (prefers-color-scheme:dark){:host([data-theme=auto]){--bc-bg:#1b1b1f;--bc-fg:#ececec;--bc-muted:#a3a3a3;--bc-theirs:#2a2a30;--bc-border:#3a3a40;--bc-error:#ff6b6b}}
*{box-sizing:border-box}
.panel:empty{display:none}
.window{display:flex;flex-direction:column;width:370px;height:min(600px,calc(100vh - 40px));background:var(--bc-bg);color:var(--bc-fg);border-radius:14px;box-shadow:0 8px 30px rgba(0,0,0,.25);overflow:hidden}
:host(:not([data-open])) .window{display:none}
:host([data-inline]) .panel{height:100%}
:host([data-inline]) .window{width:100%;height:100%;border-radius:8px;box-shadow:none;border:1px solid var(--bc-border)}
@media (max-width:479px){:host([data-open]:not([data-inline])) .window{width:100vw;height:100vh;height:100dvh;border-radius:0}}
header{display:flex;align-items:center;gap:8px;padding:12px 14px;background:var(--bc-accent);color:var(--bc-on-accent)}
header .heading{flex:1;min-width:0}
h2{margin:0;font-size:16px;font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.presence{font-size:12px;opacity:.85}
button{font:inherit;cursor:pointer}
.close{background:transparent;border:0;color:inherit;font-size:22px;line-height:1;width:32px;height:32px;border-radius:50%}
.close:hover,.close:focus-visible{background:rgba(255,255,255,.2)}
.body{flex:1;display:flex;flex-direction:column;min-height:0}
.notice{margin:8px 10px 0;padding:8px 10px;border-radius:8px;background:color-mix(in srgb,var(--bc-error) 12%,var(--bc-bg));font-size:13px}
.notice[hidden]{display:none}
.status-view{margin:auto;padding:24px;text-align:center;color:var(--bc-muted)}
.status-view.error{color:var(--bc-error)}
.log{flex:1;overflow-y:auto;padding:10px;display:flex;flex-direction:column;gap:6px}
.older,.again{align-self:center;background:transparent;border:1px solid var(--bc-border);color:var(--bc-fg);border-radius:14px;padding:3px 12px;font-size:12px}
.msg{max-width:82%;padding:7px 10px;border-radius:12px;word-wrap:break-word;overflow-wrap:anywhere;white-space:pre-wrap}
.msg.theirs{align-self:flex-start;background:var(--bc-theirs);border-bottom-left-radius:4px}
.msg.mine{align-self:flex-end;background:var(--bc-accent);color:var(--bc-on-accent);border-bottom-right-radius:4px}
.msg.welcome{white-space:pre-wrap}
.msg.failed{opacity:.85;outline:1px solid var(--bc-error)}
.author{font-size:12px;font-weight:600;color:var(--bc-muted);margin-bottom:2px}
.msg a{color:inherit}
.deleted{font-style:italic;opacity:.75}
.media{display:block;max-width:100%;border-radius:8px;margin-bottom:4px}
.media img{display:block;max-width:100%;max-height:240px;border-radius:8px}
audio.media{width:240px}
.file{display:inline-block;font-weight:600;text-decoration:underline}
.meta{display:flex;gap:6px;justify-content:flex-end;align-items:center;font-size:11px;opacity:.75;margin-top:2px;white-space:nowrap}
.error{color:inherit;font-weight:600}
.retry{background:transparent;border:1px solid currentColor;color:inherit;border-radius:10px;padding:0 8px;font-size:11px}
.reactions{display:flex;gap:2px;margin-top:2px}
.reaction{font-size:14px;background:var(--bc-bg);border-radius:10px;padding:0 4px}
progress{width:100%;height:6px}
.typing{min-height:18px;padding:0 12px;font-size:12px;color:var(--bc-muted)}
.composer{display:flex;align-items:flex-end;gap:6px;padding:8px;border-top:1px solid var(--bc-border)}
.composer textarea{flex:1;resize:none;max-height:120px;min-height:38px;padding:8px 10px;border:1px solid var(--bc-border);border-radius:18px;background:var(--bc-bg);color:var(--bc-fg);font:inherit}
.composer textarea:focus{outline:2px solid var(--bc-accent);outline-offset:0}
.icon{flex:none;width:38px;height:38px;border-radius:50%;border:0;display:grid;place-items:center;background:transparent;color:var(--bc-fg)}
.icon svg{width:20px;height:20px;fill:currentColor}
.icon.send{background:var(--bc-accent);color:var(--bc-on-accent)}
.icon:disabled{opacity:.45;cursor:default}
.icon:focus-visible,.older:focus-visible,.again:focus-visible,.start:focus-visible{outline:2px solid var(--bc-accent);outline-offset:2px}
form.prechat{display:flex;flex-direction:column;gap:10px;padding:16px;overflow-y:auto}
form.prechat label{display:flex;flex-direction:column;gap:4px;font-size:13px}
form.prechat input{padding:8px 10px;border:1px solid var(--bc-border);border-radius:8px;background:var(--bc-bg);color:var(--bc-fg);font:inherit}
form.prechat input[aria-invalid=true]{border-color:var(--bc-error)}
.field-error{color:var(--bc-error);font-size:12px}
.start{padding:10px;border:0;border-radius:8px;background:var(--bc-accent);color:var(--bc-on-accent);font-weight:600}
.dropping .log{outline:2px dashed var(--bc-accent);outline-offset:-6px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;
