import type { OutboundHttp } from '@balcao/plugin-sdk/server';

/**
 * Text to speech behind one interface, so that the assistant doesn't know the service: the answer's text in,
 * a voice note's bytes out. The one adapter today speaks Azure's speech service (the prompts' voice names
 * are its Brazilian Portuguese neural voices).
 */
export interface SpeechAdapter {
  synthesize(input: {
    text: string;
    voice: string;
    key: string;
    region: string;
  }): Promise<{ bytes: Buffer; mimetype: string; extension: string }>;
}

export class SpeechFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[char] as string);

/** Azure speech: `urlTemplate` with `{region}` (AI_SPEECH_URL), through the guarded client. */
export function azureSpeech(http: OutboundHttp, urlTemplate: string): SpeechAdapter {
  return {
    async synthesize({ text, voice, key, region }) {
      const url = urlTemplate.replace('{region}', encodeURIComponent(region || 'brazilsouth'));
      const ssml = `<speak version='1.0' xml:lang='pt-BR'><voice name='${escapeXml(voice)}'>${escapeXml(text)}</voice></speak>`;
      const answer = await http.request(url, {
        method: 'POST',
        headers: {
          'ocp-apim-subscription-key': key,
          'content-type': 'application/ssml+xml',
          'x-microsoft-outputformat': 'ogg-24khz-16bit-mono-opus',
          'user-agent': 'balcao',
        },
        body: ssml,
      });
      if (answer.status !== 200 || answer.body.length === 0) throw new SpeechFailure(`status ${answer.status}`);
      return { bytes: answer.body, mimetype: 'audio/ogg', extension: 'ogg' };
    },
  };
}
