import {
  Curve,
  generateRegistrationId,
  generateSignalPubKey,
  type KeyPair,
  type SignedKeyPair,
  signedKeyPair,
} from '@whiskeysockets/baileys';
import {
  GroupCipher,
  GroupSessionBuilder,
  SenderKeyDistributionMessage,
  SenderKeyName,
  SenderKeyRecord,
} from '@whiskeysockets/baileys/lib/Signal/Group/index.js';
import { ProtocolAddress, SessionBuilder, SessionCipher, type SessionRecord, type SignalStorage } from 'libsignal';

/**
 * One Signal identity of the simulated world (a contact's phone, or an account's primary phone): libsignal's
 * sessions for 1:1 messages and Baileys' own sender-key classes for groups — the very code the client runs, so
 * both ends speak the same dialect.
 *
 * Why not Baileys' `makeLibSignalRepository`: it serialises every session to its key store and back on each
 * message (≈0.6 ms a message); the peer keeps the live records instead (≈0.1 ms), so it can feed benchmarks.
 */

/** A prekey bundle as the server hands it out. */
export interface PreKeyBundle {
  registrationId: number;
  /** 32-byte identity key (no type prefix) */
  identity: Uint8Array;
  signedPreKey: { keyId: number; public: Uint8Array; signature: Uint8Array };
  preKey?: { keyId: number; public: Uint8Array };
}

/** The Signal address of a device: one per device, whatever addressing (PN or LID) a stanza used. */
export function deviceAddress(user: string, device: number): ProtocolAddress {
  return new ProtocolAddress(user, device);
}

export class SignalParty {
  readonly registrationId = generateRegistrationId();
  readonly signedPreKey: SignedKeyPair;
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly preKeys = new Map<number, KeyPair>();
  private readonly senderKeys = new Map<string, SenderKeyRecord>();
  private readonly ciphers = new Map<string, SessionCipher>();
  private readonly creating = new Map<string, Promise<void>>();
  private readonly storage: SignalStorage;
  private readonly senderKeyStore = {
    loadSenderKey: async (name: SenderKeyName) => this.senderKeys.get(name.toString()) ?? new SenderKeyRecord(),
    storeSenderKey: async (name: SenderKeyName, record: SenderKeyRecord) => {
      this.senderKeys.set(name.toString(), record);
    },
  };
  private nextPreKeyId = 1;

  constructor(readonly identity: KeyPair) {
    this.signedPreKey = signedKeyPair(identity, 1);
    const ourIdentity = { privKey: Buffer.from(identity.private), pubKey: Buffer.from(generateSignalPubKey(identity.public)) };
    const signed = {
      privKey: Buffer.from(this.signedPreKey.keyPair.private),
      pubKey: Buffer.from(this.signedPreKey.keyPair.public),
    };
    this.storage = {
      // live records: no (de)serialisation per message
      loadSession: async (id) => this.sessions.get(id),
      storeSession: async (id, record) => {
        this.sessions.set(id, record);
      },
      // trust on first use, as WhatsApp (and Baileys) do
      isTrustedIdentity: () => true,
      loadPreKey: async (id) => {
        const key = this.preKeys.get(Number(id));
        return key ? { privKey: Buffer.from(key.private), pubKey: Buffer.from(key.public) } : undefined;
      },
      removePreKey: (id) => {
        this.preKeys.delete(Number(id));
      },
      loadSignedPreKey: () => signed,
      getOurRegistrationId: () => this.registrationId,
      getOurIdentity: () => ourIdentity,
    };
  }

  /** A bundle with a fresh one-time prekey (the simulated phones never run out). */
  bundle(): PreKeyBundle {
    const keyId = this.nextPreKeyId++;
    const preKey = Curve.generateKeyPair();
    this.preKeys.set(keyId, preKey);
    return {
      registrationId: this.registrationId,
      identity: this.identity.public,
      signedPreKey: {
        keyId: this.signedPreKey.keyId,
        public: this.signedPreKey.keyPair.public,
        signature: this.signedPreKey.signature,
      },
      preKey: { keyId, public: preKey.public },
    };
  }

  hasSession(address: ProtocolAddress): boolean {
    return this.sessions.get(address.toString())?.haveOpenSession() ?? false;
  }

  /** Creates the session from a bundle unless there is one; concurrent callers share one creation (one prekey). */
  async ensureSession(address: ProtocolAddress, bundle: () => PreKeyBundle): Promise<void> {
    if (this.hasSession(address)) return;
    const key = address.toString();
    let creating = this.creating.get(key);
    if (!creating) {
      creating = this.initSession(address, bundle()).finally(() => this.creating.delete(key));
      this.creating.set(key, creating);
    }
    await creating;
  }

  /** A session from the other device's prekey bundle (X3DH); replaces the open one if any. */
  async initSession(address: ProtocolAddress, bundle: PreKeyBundle): Promise<void> {
    await new SessionBuilder(this.storage, address).initOutgoing({
      registrationId: bundle.registrationId,
      identityKey: generateSignalPubKey(bundle.identity),
      signedPreKey: {
        keyId: bundle.signedPreKey.keyId,
        publicKey: generateSignalPubKey(bundle.signedPreKey.public),
        signature: bundle.signedPreKey.signature,
      },
      // libsignal takes a bundle without a one-time prekey (its typings say otherwise)
      preKey: (bundle.preKey
        ? { keyId: bundle.preKey.keyId, publicKey: generateSignalPubKey(bundle.preKey.public) }
        : undefined) as unknown as { keyId: number; publicKey: Uint8Array },
    });
  }

  private cipher(address: ProtocolAddress): SessionCipher {
    const key = address.toString();
    let cipher = this.ciphers.get(key);
    if (!cipher) {
      cipher = new SessionCipher(this.storage, address);
      this.ciphers.set(key, cipher);
    }
    return cipher;
  }

  /** pkmsg while the other side has not answered yet (real Signal behaviour), msg after. */
  async encrypt(address: ProtocolAddress, data: Uint8Array): Promise<{ type: 'pkmsg' | 'msg'; ciphertext: Buffer }> {
    const { type, body } = await this.cipher(address).encrypt(data);
    return { type: type === 3 ? 'pkmsg' : 'msg', ciphertext: Buffer.from(body, 'binary') };
  }

  decrypt(address: ProtocolAddress, type: 'pkmsg' | 'msg', ciphertext: Uint8Array): Promise<Buffer> {
    const cipher = this.cipher(address);
    return type === 'pkmsg' ? cipher.decryptPreKeyWhisperMessage(ciphertext) : cipher.decryptWhisperMessage(ciphertext);
  }

  /** Group message with this party's sender key (created on first use), and the distribution message for it. */
  async encryptGroup(
    group: string,
    author: ProtocolAddress,
    data: Uint8Array,
  ): Promise<{ ciphertext: Uint8Array; distribution: Uint8Array }> {
    const name = new SenderKeyName(group, author);
    const distribution = await new GroupSessionBuilder(this.senderKeyStore).create(name);
    const ciphertext = await new GroupCipher(this.senderKeyStore, name).encrypt(data);
    return { ciphertext, distribution: distribution.serialize() };
  }

  async processSenderKeyDistribution(group: string, author: ProtocolAddress, distribution: Uint8Array): Promise<void> {
    const message = new SenderKeyDistributionMessage(null, null, null, null, distribution);
    await new GroupSessionBuilder(this.senderKeyStore).process(new SenderKeyName(group, author), message);
  }

  decryptGroup(group: string, author: ProtocolAddress, ciphertext: Uint8Array): Promise<Uint8Array> {
    return new GroupCipher(this.senderKeyStore, new SenderKeyName(group, author)).decrypt(ciphertext);
  }
}
