/**
 * The words this code writes into message bodies, for contents that carry no text of their own (a call, a
 * poll, a view-once message the linked device can't see). A body is stored once and shown as is, so it is
 * written in the product's default language (Portuguese, docs/product/README.md#what-the-product-is); a session may pass other texts.
 */
export interface InboundTexts {
  voiceCall: string;
  videoCall: string;
  /** How a call ended, after "Chamada de voz" / "Chamada de vídeo". */
  callOutcome: {
    incoming: string;
    missed: string;
    silenced: string;
    connected: string;
    rejected: string;
    failed: string;
    acceptedElsewhere: string;
    ongoing: string;
  };
  poll: string;
  event: string;
  groupInvite: string;
  product: string;
  order: string;
  /** "3 itens" in an order's line. */
  items: string;
  sticker: string;
  stickerPack: string;
  /** A view-once message delivered to the phone only (WhatsApp keeps it from linked devices). */
  viewOnceUnavailable: string;
  /** Followed by the WhatsApp type name in parentheses. */
  unsupported: string;
}

export const DEFAULT_INBOUND_TEXTS: InboundTexts = {
  voiceCall: 'Chamada de voz',
  videoCall: 'Chamada de vídeo',
  callOutcome: {
    incoming: 'recebida',
    missed: 'perdida',
    silenced: 'silenciada (número desconhecido)',
    connected: 'atendida',
    rejected: 'recusada',
    failed: 'não completada',
    acceptedElsewhere: 'atendida em outro aparelho',
    ongoing: 'em andamento',
  },
  poll: 'Enquete',
  event: 'Evento',
  groupInvite: 'Convite para o grupo',
  product: 'Produto',
  order: 'Pedido',
  items: 'itens',
  sticker: 'Figurinha',
  stickerPack: 'Pacote de figurinhas',
  viewOnceUnavailable: 'Mensagem de visualização única: abra no celular para vê-la',
  unsupported: 'Mensagem de um tipo ainda não suportado',
};

/** The default texts with a session's overrides. */
export function inboundTexts(overrides: Partial<InboundTexts> | undefined): InboundTexts {
  return overrides ? { ...DEFAULT_INBOUND_TEXTS, ...overrides } : DEFAULT_INBOUND_TEXTS;
}
