import type { WidgetLocale } from './locale';

/** The chat window's texts in the product's four languages (pt is the default). */
export interface WindowTexts {
  close: string;
  online: string;
  offline: string;
  offlineNotice: string;
  loading: string;
  loadOlder: string;
  prechatIntro: string;
  name: string;
  email: string;
  phone: string;
  optional: string;
  startChat: string;
  composer: string;
  send: string;
  attach: string;
  retry: string;
  failed: string;
  sending: string;
  sent: string;
  delivered: string;
  read: string;
  edited: string;
  deleted: string;
  you: string;
  download: string;
  uploading: (percent: number) => string;
  typing: (name: string | null) => string;
  fieldRequired: string;
  emailInvalid: string;
  phoneInvalid: string;
  /** `max`: the limit with its unit (`16 MB`). */
  fileTooLarge: (max: string) => string;
  fileTypeRefused: string;
  rateLimited: (seconds: number) => string;
  tryAgain: string;
  newMessages: string;
  errors: Record<string, string>;
}

const pt: WindowTexts = {
  close: 'Fechar conversa',
  online: 'Online',
  offline: 'Offline',
  offlineNotice: 'Estamos offline no momento. Volte mais tarde.',
  loading: 'Carregando…',
  loadOlder: 'Carregar mensagens anteriores',
  prechatIntro: 'Antes de começar, conte-nos quem você é.',
  name: 'Nome',
  email: 'E-mail',
  phone: 'Telefone',
  optional: 'opcional',
  startChat: 'Iniciar conversa',
  composer: 'Digite sua mensagem',
  send: 'Enviar',
  attach: 'Anexar arquivo',
  retry: 'Tentar de novo',
  failed: 'Não enviada',
  sending: 'Enviando…',
  sent: 'Enviada',
  delivered: 'Entregue',
  read: 'Lida',
  edited: 'editada',
  deleted: 'mensagem apagada',
  you: 'Você',
  download: 'Baixar',
  uploading: (percent) => `Enviando arquivo… ${percent}%`,
  typing: (name) => (name ? `${name} está digitando…` : 'Digitando…'),
  fieldRequired: 'Preencha este campo.',
  emailInvalid: 'Informe um e-mail válido.',
  phoneInvalid: 'Informe um telefone válido.',
  fileTooLarge: (max) => `O arquivo passa do limite de ${max}.`,
  fileTypeRefused: 'Este tipo de arquivo não é aceito.',
  rateLimited: (seconds) => `Muitas mensagens seguidas. Tente de novo em ${seconds} s.`,
  tryAgain: 'Algo deu errado. Tente de novo.',
  newMessages: 'Nova mensagem',
  errors: {
    ERR_WEBCHAT_NOT_FOUND: 'Este chat não existe mais.',
    ERR_WEBCHAT_ORIGIN_REFUSED: 'Este site não pode usar este chat.',
    ERR_WEBCHAT_SESSION_INVALID: 'Sua conversa expirou. Comece uma nova.',
    ERR_WEBCHAT_IDENTITY_INVALID: 'Não foi possível confirmar quem você é. Entre de novo no site.',
    ERR_WEBCHAT_IDENTITY_EXPIRED: 'Sua identificação expirou. Recarregue a página.',
    ERR_WEBCHAT_PRECHAT_REQUIRED: 'Preencha os campos obrigatórios.',
    ERR_WEBCHAT_INVALID_EMAIL: 'Informe um e-mail válido.',
    ERR_WEBCHAT_INVALID_PHONE: 'Informe um telefone válido.',
    ERR_WEBCHAT_INVALID_MESSAGE: 'Esta mensagem não pode ser enviada.',
    ERR_WEBCHAT_OFFLINE: 'Estamos offline no momento. Volte mais tarde.',
    ERR_WEBCHAT_RATE_LIMITED: 'Muitas mensagens seguidas. Aguarde um pouco.',
    ERR_WEBCHAT_TOO_LARGE: 'O arquivo é grande demais.',
    ERR_WEBCHAT_TYPE_REFUSED: 'Este tipo de arquivo não é aceito.',
    ERR_WEBCHAT_CONFIG_INVALID: 'Este chat está mal configurado.',
    ERR_VALIDATION: 'Verifique os dados informados.',
    NETWORK: 'Sem conexão. Verifique sua internet.',
  },
};

const en: WindowTexts = {
  close: 'Close chat',
  online: 'Online',
  offline: 'Offline',
  offlineNotice: 'We are offline right now. Please come back later.',
  loading: 'Loading…',
  loadOlder: 'Load earlier messages',
  prechatIntro: 'Before we start, tell us who you are.',
  name: 'Name',
  email: 'E-mail',
  phone: 'Phone',
  optional: 'optional',
  startChat: 'Start chat',
  composer: 'Type your message',
  send: 'Send',
  attach: 'Attach a file',
  retry: 'Try again',
  failed: 'Not sent',
  sending: 'Sending…',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  edited: 'edited',
  deleted: 'message deleted',
  you: 'You',
  download: 'Download',
  uploading: (percent) => `Uploading file… ${percent}%`,
  typing: (name) => (name ? `${name} is typing…` : 'Typing…'),
  fieldRequired: 'Please fill in this field.',
  emailInvalid: 'Enter a valid e-mail.',
  phoneInvalid: 'Enter a valid phone number.',
  fileTooLarge: (max) => `The file is over the ${max} limit.`,
  fileTypeRefused: 'This type of file is not accepted.',
  rateLimited: (seconds) => `Too many messages in a row. Try again in ${seconds} s.`,
  tryAgain: 'Something went wrong. Please try again.',
  newMessages: 'New message',
  errors: {
    ERR_WEBCHAT_NOT_FOUND: 'This chat no longer exists.',
    ERR_WEBCHAT_ORIGIN_REFUSED: 'This site may not use this chat.',
    ERR_WEBCHAT_SESSION_INVALID: 'Your conversation expired. Start a new one.',
    ERR_WEBCHAT_IDENTITY_INVALID: 'We could not confirm who you are. Sign in to the site again.',
    ERR_WEBCHAT_IDENTITY_EXPIRED: 'Your sign-in expired. Reload the page.',
    ERR_WEBCHAT_PRECHAT_REQUIRED: 'Please fill in the required fields.',
    ERR_WEBCHAT_INVALID_EMAIL: 'Enter a valid e-mail.',
    ERR_WEBCHAT_INVALID_PHONE: 'Enter a valid phone number.',
    ERR_WEBCHAT_INVALID_MESSAGE: 'This message cannot be sent.',
    ERR_WEBCHAT_OFFLINE: 'We are offline right now. Please come back later.',
    ERR_WEBCHAT_RATE_LIMITED: 'Too many messages in a row. Please wait a moment.',
    ERR_WEBCHAT_TOO_LARGE: 'The file is too large.',
    ERR_WEBCHAT_TYPE_REFUSED: 'This type of file is not accepted.',
    ERR_WEBCHAT_CONFIG_INVALID: 'This chat is misconfigured.',
    ERR_VALIDATION: 'Please check what you entered.',
    NETWORK: 'No connection. Check your internet.',
  },
};

const es: WindowTexts = {
  close: 'Cerrar conversación',
  online: 'En línea',
  offline: 'Fuera de línea',
  offlineNotice: 'No estamos disponibles en este momento. Vuelva más tarde.',
  loading: 'Cargando…',
  loadOlder: 'Cargar mensajes anteriores',
  prechatIntro: 'Antes de empezar, díganos quién es usted.',
  name: 'Nombre',
  email: 'Correo electrónico',
  phone: 'Teléfono',
  optional: 'opcional',
  startChat: 'Iniciar conversación',
  composer: 'Escriba su mensaje',
  send: 'Enviar',
  attach: 'Adjuntar archivo',
  retry: 'Reintentar',
  failed: 'No enviado',
  sending: 'Enviando…',
  sent: 'Enviado',
  delivered: 'Entregado',
  read: 'Leído',
  edited: 'editado',
  deleted: 'mensaje eliminado',
  you: 'Usted',
  download: 'Descargar',
  uploading: (percent) => `Enviando archivo… ${percent}%`,
  typing: (name) => (name ? `${name} está escribiendo…` : 'Escribiendo…'),
  fieldRequired: 'Complete este campo.',
  emailInvalid: 'Introduzca un correo válido.',
  phoneInvalid: 'Introduzca un teléfono válido.',
  fileTooLarge: (max) => `El archivo supera el límite de ${max}.`,
  fileTypeRefused: 'Este tipo de archivo no se acepta.',
  rateLimited: (seconds) => `Demasiados mensajes seguidos. Inténtelo de nuevo en ${seconds} s.`,
  tryAgain: 'Algo salió mal. Inténtelo de nuevo.',
  newMessages: 'Nuevo mensaje',
  errors: {
    ERR_WEBCHAT_NOT_FOUND: 'Este chat ya no existe.',
    ERR_WEBCHAT_ORIGIN_REFUSED: 'Este sitio no puede usar este chat.',
    ERR_WEBCHAT_SESSION_INVALID: 'Su conversación caducó. Inicie una nueva.',
    ERR_WEBCHAT_IDENTITY_INVALID: 'No pudimos confirmar quién es usted. Inicie sesión de nuevo en el sitio.',
    ERR_WEBCHAT_IDENTITY_EXPIRED: 'Su identificación caducó. Recargue la página.',
    ERR_WEBCHAT_PRECHAT_REQUIRED: 'Complete los campos obligatorios.',
    ERR_WEBCHAT_INVALID_EMAIL: 'Introduzca un correo válido.',
    ERR_WEBCHAT_INVALID_PHONE: 'Introduzca un teléfono válido.',
    ERR_WEBCHAT_INVALID_MESSAGE: 'Este mensaje no se puede enviar.',
    ERR_WEBCHAT_OFFLINE: 'No estamos disponibles en este momento. Vuelva más tarde.',
    ERR_WEBCHAT_RATE_LIMITED: 'Demasiados mensajes seguidos. Espere un momento.',
    ERR_WEBCHAT_TOO_LARGE: 'El archivo es demasiado grande.',
    ERR_WEBCHAT_TYPE_REFUSED: 'Este tipo de archivo no se acepta.',
    ERR_WEBCHAT_CONFIG_INVALID: 'Este chat está mal configurado.',
    ERR_VALIDATION: 'Revise los datos ingresados.',
    NETWORK: 'Sin conexión. Revise su internet.',
  },
};

const tr: WindowTexts = {
  close: 'Sohbeti kapat',
  online: 'Çevrimiçi',
  offline: 'Çevrimdışı',
  offlineNotice: 'Şu anda çevrimdışıyız. Lütfen daha sonra tekrar gelin.',
  loading: 'Yükleniyor…',
  loadOlder: 'Önceki mesajları yükle',
  prechatIntro: 'Başlamadan önce bize kim olduğunuzu söyleyin.',
  name: 'Ad',
  email: 'E-posta',
  phone: 'Telefon',
  optional: 'isteğe bağlı',
  startChat: 'Sohbeti başlat',
  composer: 'Mesajınızı yazın',
  send: 'Gönder',
  attach: 'Dosya ekle',
  retry: 'Tekrar dene',
  failed: 'Gönderilemedi',
  sending: 'Gönderiliyor…',
  sent: 'Gönderildi',
  delivered: 'İletildi',
  read: 'Okundu',
  edited: 'düzenlendi',
  deleted: 'mesaj silindi',
  you: 'Siz',
  download: 'İndir',
  uploading: (percent) => `Dosya yükleniyor… %${percent}`,
  typing: (name) => (name ? `${name} yazıyor…` : 'Yazıyor…'),
  fieldRequired: 'Bu alanı doldurun.',
  emailInvalid: 'Geçerli bir e-posta girin.',
  phoneInvalid: 'Geçerli bir telefon numarası girin.',
  fileTooLarge: (max) => `Dosya ${max} sınırını aşıyor.`,
  fileTypeRefused: 'Bu dosya türü kabul edilmiyor.',
  rateLimited: (seconds) => `Art arda çok fazla mesaj. ${seconds} sn sonra tekrar deneyin.`,
  tryAgain: 'Bir şeyler ters gitti. Tekrar deneyin.',
  newMessages: 'Yeni mesaj',
  errors: {
    ERR_WEBCHAT_NOT_FOUND: 'Bu sohbet artık mevcut değil.',
    ERR_WEBCHAT_ORIGIN_REFUSED: 'Bu site bu sohbeti kullanamaz.',
    ERR_WEBCHAT_SESSION_INVALID: 'Sohbetinizin süresi doldu. Yeni bir sohbet başlatın.',
    ERR_WEBCHAT_IDENTITY_INVALID: 'Kimliğinizi doğrulayamadık. Siteye yeniden giriş yapın.',
    ERR_WEBCHAT_IDENTITY_EXPIRED: 'Kimlik doğrulamanızın süresi doldu. Sayfayı yenileyin.',
    ERR_WEBCHAT_PRECHAT_REQUIRED: 'Zorunlu alanları doldurun.',
    ERR_WEBCHAT_INVALID_EMAIL: 'Geçerli bir e-posta girin.',
    ERR_WEBCHAT_INVALID_PHONE: 'Geçerli bir telefon numarası girin.',
    ERR_WEBCHAT_INVALID_MESSAGE: 'Bu mesaj gönderilemez.',
    ERR_WEBCHAT_OFFLINE: 'Şu anda çevrimdışıyız. Lütfen daha sonra tekrar gelin.',
    ERR_WEBCHAT_RATE_LIMITED: 'Art arda çok fazla mesaj. Lütfen biraz bekleyin.',
    ERR_WEBCHAT_TOO_LARGE: 'Dosya çok büyük.',
    ERR_WEBCHAT_TYPE_REFUSED: 'Bu dosya türü kabul edilmiyor.',
    ERR_WEBCHAT_CONFIG_INVALID: 'Bu sohbet hatalı yapılandırılmış.',
    ERR_VALIDATION: 'Girdiğiniz bilgileri kontrol edin.',
    NETWORK: 'Bağlantı yok. İnternetinizi kontrol edin.',
  },
};

export const WINDOW_TEXTS: Record<WidgetLocale, WindowTexts> = { pt, en, es, tr };

/** The text of an error code in a language; unknown codes get the generic one. */
export function errorText(texts: WindowTexts, code: string): string {
  return texts.errors[code] ?? texts.tryAgain;
}
