/*
 * Server-side only: the browser never needs these texts, and whatever the shared entry exports is part of
 * the login page's first download (docs/benchmarks.md, the 300 KB budget).
 */
/** The languages the product's default customer texts come in (the interface's). */
export type CustomerTextLanguage = 'pt' | 'en' | 'es' | 'tr';

/**
 * What the product tells a customer when the connection leaves a text empty: the farewell on closing (so
 * closing always tells the visitor something) and the rating question (so turning ratings on in Settings
 * works without filling the connection first). Keyed by language; Portuguese is the default.
 */
export const DEFAULT_CUSTOMER_TEXTS: Record<CustomerTextLanguage, { farewell: string; rating: string }> = {
  pt: {
    farewell: 'Atendimento encerrado. Obrigado pelo contato! Se precisar, é só nos escrever de novo.',
    rating: 'Como você avalia o nosso atendimento?',
  },
  en: {
    farewell: 'This conversation is now closed. Thank you for getting in touch! Write to us again any time.',
    rating: 'How would you rate our service?',
  },
  es: {
    farewell: 'Atención finalizada. ¡Gracias por contactarnos! Si lo necesita, escríbanos de nuevo.',
    rating: '¿Cómo califica nuestra atención?',
  },
  tr: {
    farewell: 'Görüşme sonlandı. Bize ulaştığınız için teşekkürler! İhtiyacınız olursa yeniden yazabilirsiniz.',
    rating: 'Hizmetimizi nasıl değerlendirirsiniz?',
  },
};

/**
 * The default customer texts for a language tag or an `Accept-Language` header (`en-US,en;q=0.9` → en);
 * Portuguese for anything else or nothing.
 */
export function defaultCustomerTexts(language?: string | null): { farewell: string; rating: string } {
  for (const part of (language ?? '').split(',')) {
    const tag = part.trim().slice(0, 2).toLowerCase();
    if (tag in DEFAULT_CUSTOMER_TEXTS) return DEFAULT_CUSTOMER_TEXTS[tag as CustomerTextLanguage];
  }
  return DEFAULT_CUSTOMER_TEXTS.pt;
}
