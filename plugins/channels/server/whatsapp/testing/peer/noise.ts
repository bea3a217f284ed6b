import {
  aesDecryptGCM,
  aesEncryptGCM,
  Curve,
  hkdf,
  type KeyPair,
  NOISE_MODE,
  proto,
  sha256,
  WA_CERT_DETAILS,
} from '@whiskeysockets/baileys';

/**
 * The server side of WhatsApp Web's Noise_XX_25519_AESGCM_SHA256 handshake: the mirror image of Baileys'
 * `Utils/noise-handler.js` (the initiator), built from the same primitives Baileys exports so both ends
 * agree byte for byte.
 */

/**
 * The root of the server certificate chain. WhatsApp's clients pin the real root's public key
 * (`WA_CERT_DETAILS.PUBLIC_KEY`); the peer signs its chain with a root of its own, generated once per process
 * so every peer (and every client) of the process shares it.
 */
const root: KeyPair = Curve.generateKeyPair();

/**
 * Makes Baileys in this process trust the peer's certificate root instead of WhatsApp's. Baileys reads the
 * exported (mutable) `WA_CERT_DETAILS` object on every handshake, so this has to run before a client connects;
 * `startWhatsAppPeer` calls it. Idempotent. Returns the root public key.
 */
export function trustPeerRoot(): Uint8Array {
  WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(root.public);
  return root.public;
}

export interface ServerIdentity {
  /** the server's static Noise key (the leaf certificate's key) */
  staticKey: KeyPair;
  /** proto.CertChain bytes sent (encrypted) in the server hello */
  certChain: Uint8Array;
}

/** A fresh intermediate and leaf certificate, as WhatsApp's servers present: root → intermediate → leaf. */
export function makeServerIdentity(): ServerIdentity {
  const intermediate = Curve.generateKeyPair();
  const staticKey = Curve.generateKeyPair();
  const now = Math.floor(Date.now() / 1000);
  const intermediateSerial = 1;
  const intermediateDetails = proto.CertChain.NoiseCertificate.Details.encode({
    serial: intermediateSerial,
    // Baileys requires the intermediate's issuer to be the pinned root's serial
    issuerSerial: WA_CERT_DETAILS.SERIAL,
    key: intermediate.public,
    notBefore: now - 3600,
    notAfter: now + 30 * 86_400,
  }).finish();
  const leafDetails = proto.CertChain.NoiseCertificate.Details.encode({
    serial: 2,
    issuerSerial: intermediateSerial,
    key: staticKey.public,
    notBefore: now - 3600,
    notAfter: now + 30 * 86_400,
  }).finish();
  const certChain = proto.CertChain.encode({
    intermediate: { details: intermediateDetails, signature: Curve.sign(root.private, intermediateDetails) },
    leaf: { details: leafDetails, signature: Curve.sign(intermediate.private, leafDetails) },
  }).finish();
  return { staticKey, certChain };
}

const EMPTY = Buffer.alloc(0);

function ivFor(counter: number, iv: Buffer = Buffer.alloc(12)): Buffer {
  iv.writeUInt32BE(counter >>> 0, 8);
  return iv;
}

/** Post-handshake transport: one AES-GCM key per direction, the frame counter as the IV. */
export class NoiseTransport {
  private readCounter = 0;
  private writeCounter = 0;
  private readonly readIv = Buffer.alloc(12);
  private readonly writeIv = Buffer.alloc(12);

  constructor(
    private readonly encKey: Uint8Array,
    private readonly decKey: Uint8Array,
  ) {}

  encrypt(plaintext: Uint8Array): Buffer {
    return aesEncryptGCM(plaintext, this.encKey, ivFor(this.writeCounter++, this.writeIv), EMPTY);
  }

  decrypt(ciphertext: Uint8Array): Buffer {
    return aesDecryptGCM(ciphertext, this.decKey, ivFor(this.readCounter++, this.readIv), EMPTY);
  }
}

/**
 * The responder's handshake state. Every step mirrors one in Baileys' `makeNoiseHandler` (the same
 * `hash`/`salt`/key/counter bookkeeping), in the order the XX pattern runs it.
 */
export class NoiseResponder {
  private hash: Buffer;
  private salt: Buffer;
  private key: Buffer;
  private counter = 0;
  private readonly ephemeral = Curve.generateKeyPair();
  private clientEphemeral: Uint8Array | undefined;

  constructor(
    private readonly identity: ServerIdentity,
    /** the 4-byte `WA` header the client sent first (the client mixes it into its hash) */
    header: Uint8Array,
  ) {
    const mode = Buffer.from(NOISE_MODE);
    this.hash = mode.byteLength === 32 ? mode : sha256(mode);
    this.salt = this.hash;
    this.key = this.hash;
    this.authenticate(header);
  }

  private authenticate(data: Uint8Array): void {
    this.hash = sha256(Buffer.concat([this.hash, data]));
  }

  private mixIntoKey(data: Uint8Array): void {
    const expanded = hkdf(Buffer.from(data), 64, { salt: this.salt, info: '' });
    this.salt = Buffer.from(expanded.subarray(0, 32));
    this.key = Buffer.from(expanded.subarray(32));
    this.counter = 0;
  }

  private encrypt(plaintext: Uint8Array): Buffer {
    const result = aesEncryptGCM(plaintext, this.key, ivFor(this.counter++), this.hash);
    this.authenticate(result);
    return result;
  }

  private decrypt(ciphertext: Uint8Array): Buffer {
    const result = aesDecryptGCM(ciphertext, this.key, ivFor(this.counter++), this.hash);
    this.authenticate(ciphertext);
    return result;
  }

  /** Answers the client hello (-> e) with the server hello (<- e, ee, s, es, certificate payload). */
  serverHello(clientHello: proto.HandshakeMessage.IClientHello): Uint8Array {
    const clientEphemeral = clientHello.ephemeral;
    if (clientEphemeral?.length !== 32) throw new Error('client hello without a 32-byte ephemeral key');
    this.clientEphemeral = clientEphemeral;
    this.authenticate(clientEphemeral);
    this.authenticate(this.ephemeral.public);
    this.mixIntoKey(Curve.sharedKey(this.ephemeral.private, clientEphemeral));
    const staticCiphertext = this.encrypt(this.identity.staticKey.public);
    this.mixIntoKey(Curve.sharedKey(this.identity.staticKey.private, clientEphemeral));
    const payload = this.encrypt(this.identity.certChain);
    return proto.HandshakeMessage.encode({
      serverHello: { ephemeral: this.ephemeral.public, static: staticCiphertext, payload },
    }).finish();
  }

  /**
   * Reads the client finish (-> s, se, payload): the client's static Noise key (its account credential)
   * and its ClientPayload (login or registration). Returns them with the transport keys.
   */
  clientFinish(finish: proto.HandshakeMessage.IClientFinish): {
    clientStatic: Buffer;
    payload: proto.ClientPayload;
    transport: NoiseTransport;
  } {
    if (!this.clientEphemeral || !finish.static || !finish.payload) throw new Error('unexpected client finish');
    const clientStatic = this.decrypt(finish.static);
    this.mixIntoKey(Curve.sharedKey(this.ephemeral.private, clientStatic));
    const payload = proto.ClientPayload.decode(this.decrypt(finish.payload));
    const expanded = hkdf(new Uint8Array(0), 64, { salt: this.salt, info: '' });
    // the initiator writes with the first half and reads with the second: the responder the other way round
    const transport = new NoiseTransport(expanded.subarray(32), expanded.subarray(0, 32));
    return { clientStatic, payload, transport };
  }
}
