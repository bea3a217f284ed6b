/** How the bot writes its menus and reads the contact's choices (every menu of the chatbot and the LGPD question). */

/** A menu line per option, numbered from 1, as the documented bots write them (`*[ 1 ]* - Vendas`). */
export function menuText(intro: string, names: string[], extras: Array<[string, string]> = []): string {
  const lines = [
    ...names.map((name, index) => `*[ ${index + 1} ]* - ${name}`),
    ...extras.map(([key, label]) => `*[ ${key} ]* - ${label}`),
  ];
  return [intro.trim(), lines.join('\n')].filter((part) => part !== '').join('\n\n');
}

/** The number a contact typed (`2`, ` 2 `), or null. */
export function choiceOf(body: string): number | null {
  const text = body.trim();
  return /^\d{1,3}$/.test(text) ? Number(text) : null;
}
