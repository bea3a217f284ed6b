import type { proto } from '@whiskeysockets/baileys';

/**
 * Readable text of WhatsApp's structured messages (templates, buttons, lists, interactive messages) and of the
 * answers to them. The inbox has no structure for these: an agent reads the text (mediaType `template`), and
 * the chatbot reads a contact's answer from the body, so an answer's body is the option's visible text.
 */

/** Non-empty lines joined; undefined and blank parts dropped. */
export function lines(...parts: Array<string | null | undefined>): string {
  return parts
    .map((part) => part?.trim())
    .filter((part): part is string => Boolean(part))
    .join('\n');
}

/** A button as the text shows it. */
function buttonLine(label: string | null | undefined, detail?: string | null): string | undefined {
  const text = label?.trim();
  if (!text) return detail?.trim() || undefined;
  return detail?.trim() ? `[ ${text} ] ${detail.trim()}` : `[ ${text} ]`;
}

/** The JSON object of a native-flow parameter string, or an empty one. */
function parseParams(json: string | null | undefined): Record<string, unknown> {
  if (!json) return {};
  try {
    const parsed: unknown = JSON.parse(json);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function stringParam(params: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = params[name];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

/** A highly structured (HSM) text: its hydrated template, else its parameters, else its element name. */
export function highlyStructuredText(message: proto.Message.IHighlyStructuredMessage | null | undefined): string {
  if (!message) return '';
  if (message.hydratedHsm) return templateText(message.hydratedHsm);
  const params = (message.localizableParams ?? []).map((param) => param.default).filter(Boolean);
  const values = params.length > 0 ? params : (message.params ?? []);
  return values.length > 0 ? lines(...values) : (message.elementName ?? '');
}

/** A template message (hydrated, four-row or interactive format). */
export function templateText(message: proto.Message.ITemplateMessage): string {
  const hydrated = message.hydratedTemplate ?? message.hydratedFourRowTemplate;
  if (hydrated) {
    return lines(
      hydrated.hydratedTitleText,
      hydrated.hydratedContentText,
      hydrated.hydratedFooterText,
      ...(hydrated.hydratedButtons ?? []).map(
        (button) =>
          buttonLine(button.quickReplyButton?.displayText) ??
          buttonLine(button.urlButton?.displayText, button.urlButton?.url) ??
          buttonLine(button.callButton?.displayText, button.callButton?.phoneNumber),
      ),
    );
  }
  const fourRow = message.fourRowTemplate;
  if (fourRow) {
    return lines(
      fourRow.highlyStructuredMessage ? highlyStructuredText(fourRow.highlyStructuredMessage) : undefined,
      highlyStructuredText(fourRow.content),
      highlyStructuredText(fourRow.footer),
      ...(fourRow.buttons ?? []).map(
        (button) =>
          buttonLine(highlyStructuredText(button.quickReplyButton?.displayText)) ??
          buttonLine(highlyStructuredText(button.urlButton?.displayText), highlyStructuredText(button.urlButton?.url)) ??
          buttonLine(highlyStructuredText(button.callButton?.displayText), highlyStructuredText(button.callButton?.phoneNumber)),
      ),
    );
  }
  if (message.interactiveMessageTemplate) return interactiveText(message.interactiveMessageTemplate);
  return '';
}

/** A buttons message: header text, content, footer, one line per button. */
export function buttonsText(message: proto.Message.IButtonsMessage): string {
  return lines(
    message.text,
    message.contentText,
    message.footerText,
    ...(message.buttons ?? []).map((button) => {
      const flow = parseParams(button.nativeFlowInfo?.paramsJson);
      return buttonLine(button.buttonText?.displayText ?? stringParam(flow, 'display_text'));
    }),
  );
}

/** A list message: title, description, footer, then each section with its rows. */
export function listText(message: proto.Message.IListMessage): string {
  const sections = (message.sections ?? []).map((section) =>
    lines(
      section.title,
      ...(section.rows ?? []).map((row) => {
        const title = row.title?.trim();
        const description = row.description?.trim();
        if (!title) return description;
        return description ? `• ${title} — ${description}` : `• ${title}`;
      }),
    ),
  );
  return lines(message.title, message.description, ...sections, message.footerText, buttonLine(message.buttonText));
}

/** An interactive message: header, body, footer, native-flow buttons; a carousel's cards one after another. */
export function interactiveText(message: proto.Message.IInteractiveMessage): string {
  const buttons = (message.nativeFlowMessage?.buttons ?? []).map((button) => {
    const params = parseParams(button.buttonParamsJson);
    return buttonLine(
      stringParam(params, 'display_text', 'title') ?? button.name,
      stringParam(params, 'url', 'phone_number', 'copy_code'),
    );
  });
  const cards = (message.carouselMessage?.cards ?? []).map((card) => interactiveText(card));
  return lines(
    message.header?.title,
    message.header?.subtitle,
    message.body?.text,
    message.footer?.text,
    ...buttons,
    cards.filter(Boolean).join('\n\n'),
  );
}

/** The contact's choice on a buttons message: the button's text, else its id. */
export function buttonsResponseText(message: proto.Message.IButtonsResponseMessage): string {
  return message.selectedDisplayText?.trim() || message.selectedButtonId?.trim() || '';
}

/** The contact's choice on a list: the row's title, else its id. */
export function listResponseText(message: proto.Message.IListResponseMessage): string {
  return message.title?.trim() || message.singleSelectReply?.selectedRowId?.trim() || message.description?.trim() || '';
}

/** The contact's choice on a template's button: its text, else its id. */
export function templateButtonReplyText(message: proto.Message.ITemplateButtonReplyMessage): string {
  return message.selectedDisplayText?.trim() || message.selectedId?.trim() || '';
}

/** The contact's answer to an interactive message: the text WhatsApp shows, else what the flow's parameters name. */
export function interactiveResponseText(message: proto.Message.IInteractiveResponseMessage): string {
  const shown = message.body?.text?.trim();
  if (shown) return shown;
  const flow = message.nativeFlowResponseMessage;
  const params = parseParams(flow?.paramsJson);
  return stringParam(params, 'display_text', 'title', 'description', 'id') ?? flow?.name?.trim() ?? '';
}
