/**
 * What the chatbot tells a contact when it hands the conversation over to people (server: queues/chatbot/
 * handoff.ts; the Settings page shows it under `chatbotWaitingMessage`). The product's text, in each
 * interface language. Messages the product sends to contacts go in Portuguese
 * (the product's default language, as the LGPD texts); a company writing to its contacts in another
 * language writes its own `chatbotWaitingMessage` (the Settings page shows what goes while it is empty).
 */
export const WAITING_TEXTS = {
  pt: 'Obrigado! Um atendente vai continuar a conversa por aqui em breve.',
  en: 'Thank you! An agent will continue the conversation here shortly.',
  es: '¡Gracias! Un agente continuará la conversación por aquí en breve.',
  tr: 'Teşekkürler! Bir temsilci kısa süre içinde görüşmeye buradan devam edecek.',
} as const;
