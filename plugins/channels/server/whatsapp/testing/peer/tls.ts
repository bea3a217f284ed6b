import { type AgentOptions, Agent as HttpsAgent } from 'node:https';
import { isIP, type NetConnectOpts } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { generate } from 'selfsigned';
import { buildConnector, Agent as UndiciAgent } from 'undici';

/**
 * The peer's TLS material. Baileys only speaks HTTPS to the media hosts (`https://${host}${path}` for uploads
 * and downloads; history sync always from mmg.whatsapp.net), so the peer's media server needs a certificate its
 * clients trust: a self-signed one made once per process (key generation is the slow part), for WhatsApp's media
 * host names and 127.0.0.1, handed to the clients as an explicit trust anchor — never by turning checks off.
 */
export interface PeerTls {
  /** PEM certificate: the trust anchor for clients (it is its own CA) */
  ca: string;
  cert: string;
  key: string;
}

let material: Promise<PeerTls> | undefined;

export function peerTls(): Promise<PeerTls> {
  material ??= generate([{ name: 'commonName', value: 'balcao-whatsapp-peer' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 7 * 86_400_000),
    extensions: [
      // its own CA: Node's TLS accepts it as the anchor in `ca`
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: '*.whatsapp.net' },
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  }).then((pems) => ({ ca: pems.cert, cert: pems.cert, key: pems.private }));
  return material;
}

/**
 * An https.Agent whose every connection goes to the peer's media server, whatever host the URL names (the
 * agent is the test network's name resolution: `mmg.whatsapp.net` is the peer). TLS is verified against the URL's
 * host name with the peer's CA, as it would be against WhatsApp's.
 */
class PeerHttpsAgent extends HttpsAgent {
  constructor(
    private readonly target: { host: string; port: number },
    options: AgentOptions,
  ) {
    super(options);
  }

  override createConnection(options: NetConnectOpts & { host?: string; servername?: string }) {
    const name = options.servername || options.host || '';
    return tlsConnect({
      ...(options as object),
      host: this.target.host,
      port: this.target.port,
      servername: name && !isIP(name) ? name : undefined,
    });
  }
}

/**
 * Uploads: Baileys' `uploadWithNodeHttp` passes `config.fetchAgent` to `https.request`, so an https.Agent.
 * Downloads: `getHttpStream` calls the global fetch with `dispatcher` from the download options (history and
 * app-state downloads take `config.options`), so an undici dispatcher. Both send every connection to the peer.
 */
export function makeClientTransport(
  tls: PeerTls,
  target: { host: string; port: number },
): { httpsAgent: HttpsAgent; fetchDispatcher: UndiciAgent } {
  const connector = buildConnector({ ca: tls.ca });
  return {
    httpsAgent: new PeerHttpsAgent(target, { ca: tls.ca, keepAlive: true }),
    fetchDispatcher: new UndiciAgent({
      connect: (options, callback) => {
        const name = options.servername || options.hostname;
        connector(
          {
            ...options,
            hostname: target.host,
            host: target.host,
            port: String(target.port),
            servername: isIP(name) ? undefined : name,
          },
          callback,
        );
      },
    }),
  };
}
