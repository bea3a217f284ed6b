/** The widget's texts in the product's four languages (pt is the default). */
export const WIDGET_TEXTS = {
  pt: {
    defaultLane: 'Em aberto',
    empty: 'Nenhum ticket',
    loading: 'Carregando…',
    noUser: 'Sem atendente',
    open: 'Abrir',
    loadFailed: 'Não foi possível carregar o quadro.',
    moveFailed: 'Não foi possível mover o cartão.',
    revoked: 'Este quadro não está mais disponível.',
    count: (count: number) => `${count} ${count === 1 ? 'ticket' : 'tickets'}`,
    errors: {
      ERR_EMBED_READ_ONLY: 'Este quadro é somente leitura.',
      ERR_EMBED_USER_TOKEN_REQUIRED: 'Entre para mover cartões.',
      ERR_EMBED_USER_TOKEN_INVALID: 'Sua sessão não é válida. Entre novamente.',
      ERR_EMBED_USER_TOKEN_EXPIRED: 'Sua sessão expirou. Entre novamente.',
      ERR_EMBED_ORIGIN_REFUSED: 'Este site não pode mostrar este quadro.',
      ERR_EMBED_KEY_REVOKED: 'Este quadro não está mais disponível.',
      ERR_RATE_LIMITED: 'Muitas ações seguidas. Tente de novo em instantes.',
    } as Record<string, string>,
  },
  en: {
    defaultLane: 'Open',
    empty: 'No tickets',
    loading: 'Loading…',
    noUser: 'No agent',
    open: 'Open',
    loadFailed: 'Could not load the board.',
    moveFailed: 'Could not move the card.',
    revoked: 'This board is no longer available.',
    count: (count: number) => `${count} ${count === 1 ? 'ticket' : 'tickets'}`,
    errors: {
      ERR_EMBED_READ_ONLY: 'This board is read-only.',
      ERR_EMBED_USER_TOKEN_REQUIRED: 'Sign in to move cards.',
      ERR_EMBED_USER_TOKEN_INVALID: 'Your session is not valid. Sign in again.',
      ERR_EMBED_USER_TOKEN_EXPIRED: 'Your session expired. Sign in again.',
      ERR_EMBED_ORIGIN_REFUSED: 'This site may not show this board.',
      ERR_EMBED_KEY_REVOKED: 'This board is no longer available.',
      ERR_RATE_LIMITED: 'Too many actions in a row. Try again in a moment.',
    } as Record<string, string>,
  },
  es: {
    defaultLane: 'Abiertos',
    empty: 'Ningún ticket',
    loading: 'Cargando…',
    noUser: 'Sin agente',
    open: 'Abrir',
    loadFailed: 'No se pudo cargar el tablero.',
    moveFailed: 'No se pudo mover la tarjeta.',
    revoked: 'Este tablero ya no está disponible.',
    count: (count: number) => `${count} ${count === 1 ? 'ticket' : 'tickets'}`,
    errors: {
      ERR_EMBED_READ_ONLY: 'Este tablero es de solo lectura.',
      ERR_EMBED_USER_TOKEN_REQUIRED: 'Inicie sesión para mover tarjetas.',
      ERR_EMBED_USER_TOKEN_INVALID: 'Su sesión no es válida. Inicie sesión de nuevo.',
      ERR_EMBED_USER_TOKEN_EXPIRED: 'Su sesión caducó. Inicie sesión de nuevo.',
      ERR_EMBED_ORIGIN_REFUSED: 'Este sitio no puede mostrar este tablero.',
      ERR_EMBED_KEY_REVOKED: 'Este tablero ya no está disponible.',
      ERR_RATE_LIMITED: 'Demasiadas acciones seguidas. Inténtelo de nuevo en un momento.',
    } as Record<string, string>,
  },
  tr: {
    defaultLane: 'Açık',
    empty: 'Talep yok',
    loading: 'Yükleniyor…',
    noUser: 'Temsilci yok',
    open: 'Aç',
    loadFailed: 'Pano yüklenemedi.',
    moveFailed: 'Kart taşınamadı.',
    revoked: 'Bu pano artık kullanılamıyor.',
    count: (count: number) => `${count} talep`,
    errors: {
      ERR_EMBED_READ_ONLY: 'Bu pano salt okunur.',
      ERR_EMBED_USER_TOKEN_REQUIRED: 'Kartları taşımak için giriş yapın.',
      ERR_EMBED_USER_TOKEN_INVALID: 'Oturumunuz geçersiz. Yeniden giriş yapın.',
      ERR_EMBED_USER_TOKEN_EXPIRED: 'Oturumunuzun süresi doldu. Yeniden giriş yapın.',
      ERR_EMBED_ORIGIN_REFUSED: 'Bu site bu panoyu gösteremez.',
      ERR_EMBED_KEY_REVOKED: 'Bu pano artık kullanılamıyor.',
      ERR_RATE_LIMITED: 'Art arda çok fazla işlem. Birazdan tekrar deneyin.',
    } as Record<string, string>,
  },
};

export type WidgetLanguage = keyof typeof WIDGET_TEXTS;
export type WidgetTexts = (typeof WIDGET_TEXTS)[WidgetLanguage];

/** The texts of a language code (`pt-BR` → pt); unknown codes get pt. */
export function textsFor(language: string | null | undefined): WidgetTexts {
  const code = (language ?? '').slice(0, 2).toLowerCase();
  return code in WIDGET_TEXTS ? WIDGET_TEXTS[code as WidgetLanguage] : WIDGET_TEXTS.pt;
}
