/**
 * The demo page's port (`npm start` serves it beside the app, so the widget really is cross-origin): the
 * launcher's reading of KANBAN_DEMO_PORT, declared in ../config.ts and validated by the server at start.
 */
export const DEMO_PAGE_PORT = Number(process.env.KANBAN_DEMO_PORT ?? 8090);
/** The demo embed key of Acme, written in the demo page (a public value, like any embed key). */
export const DEMO_EMBED_KEY = 'kbk_demo-acme-board-0000000000000000';
