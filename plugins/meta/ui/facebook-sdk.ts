import type { LoginSettings } from './api';

/** The parts of the Facebook JS SDK we use. */
interface FacebookSdk {
  init(options: { appId: string; version: string; cookie?: boolean; xfbml?: boolean }): void;
  login(
    callback: (response: { status?: string; authResponse?: { accessToken?: string; userID?: string } | null }) => void,
    options: { scope: string },
  ): void;
}

/** What Facebook Login asks the user to grant: the pages, their messages and their Instagram accounts' messages. */
const SCOPES = [
  'pages_show_list',
  'pages_messaging',
  'pages_manage_metadata',
  'business_management',
  'instagram_basic',
  'instagram_manage_messages',
].join(',');

let loading: Promise<FacebookSdk> | null = null;

/** Loads the SDK once per page from the server's configured address (Facebook's, or the Graph stand-in's). */
function loadSdk(settings: LoginSettings): Promise<FacebookSdk> {
  loading ??= new Promise<FacebookSdk>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = settings.sdkUrl;
    script.async = true;
    script.crossOrigin = 'anonymous';
    script.onload = () => {
      const sdk = (window as unknown as { FB?: FacebookSdk }).FB;
      if (!sdk) return reject(new Error('the Facebook SDK defined no FB'));
      sdk.init({ appId: settings.appId ?? '', version: settings.graphVersion, cookie: false, xfbml: false });
      resolve(sdk);
    };
    script.onerror = () => reject(new Error('the Facebook SDK did not load'));
    document.head.appendChild(script);
  }).catch((error: unknown) => {
    // a failed load may be tried again (a blocker turned off, the network back)
    loading = null;
    throw error;
  });
  return loading;
}

/** Facebook Login: the user's id and short-lived token, or null when the user didn't finish it. */
export async function facebookLogin(settings: LoginSettings): Promise<{ userId: string; token: string } | null> {
  const sdk = await loadSdk(settings);
  return new Promise((resolve) => {
    sdk.login(
      (response) => {
        const auth = response.authResponse;
        resolve(
          response.status === 'connected' && auth?.accessToken && auth.userID
            ? { userId: auth.userID, token: auth.accessToken }
            : null,
        );
      },
      { scope: SCOPES },
    );
  });
}
