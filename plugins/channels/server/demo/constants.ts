/**
 * The webchat demo page's port (`npm start` serves it beside the app, so the widget really is cross-origin):
 * the launcher's reading of WEBCHAT_DEMO_PORT, declared in ../webchat/demo-config.ts and validated by the server at start.
 */
export const WEBCHAT_DEMO_PORT = Number(process.env.WEBCHAT_DEMO_PORT ?? 8091);
/** Acme's demo widget key, written in the demo page (a public value, like any widget key). */
export const DEMO_WIDGET_KEY = 'wck_demo-acme-site-00000000000000000';
/** The demo connection's name. */
export const DEMO_CONNECTION_NAME = 'Site Acme';
/** The platform's own support chat in the demo (the login page's "Chat de suporte"), a public value too. */
export const DEMO_SUPPORT_WIDGET_KEY = 'wck_demo-platform-support-0000000000';
/** The platform support connection's name. */
export const DEMO_SUPPORT_CONNECTION_NAME = 'Suporte Balcão';
