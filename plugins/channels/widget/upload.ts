import type { WebchatMessage } from '../shared/webchat';
import { WebchatCallError, webchatUrl } from './http';

/**
 * Sends a file message as multipart (`clientId`, `body?`, `file`) with XMLHttpRequest, the one browser
 * API that reports upload progress; resolves the stored message, rejects with a WebchatCallError.
 */
export function uploadFile(options: {
  api: string;
  widgetKey: string;
  sessionToken: string;
  clientId: string;
  body: string;
  file: File;
  onProgress(percent: number): void;
}): Promise<WebchatMessage> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append('clientId', options.clientId);
    if (options.body) form.append('body', options.body);
    form.append('file', options.file, options.file.name);
    const request = new XMLHttpRequest();
    request.open('POST', webchatUrl(options.api, options.widgetKey, '/messages'));
    request.setRequestHeader('authorization', `Bearer ${options.sessionToken}`);
    request.withCredentials = false;
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) options.onProgress(Math.round((event.loaded / event.total) * 100));
    });
    request.addEventListener('load', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(request.responseText || '{}');
      } catch {
        // a body that isn't JSON: the status tells
      }
      if (request.status >= 200 && request.status < 300) resolve(body as unknown as WebchatMessage);
      else reject(new WebchatCallError(String(body.error ?? `HTTP_${request.status}`), request.status, body));
    });
    request.addEventListener('error', () => reject(new WebchatCallError('NETWORK', 0)));
    request.addEventListener('abort', () => reject(new WebchatCallError('NETWORK', 0)));
    request.send(form);
  });
}
