/**
 * The chat markup agents, bots and customers write (WhatsApp's): `*bold*`, `_italic_`, `~strike~` within a
 * line (nestable: `*_both_*`) and ```` ```mono``` ```` (across lines), plus web addresses. Parsed into plain
 * segments that every surface renders itself as elements or text nodes — the inbox, the kanban cards and
 * both widgets show the same thing, and no surface ever turns a message into HTML.
 */

/** A run of text with the emphasis it is shown with. */
export interface MarkupSegment {
  text: string;
  bold?: true;
  italic?: true;
  strike?: true;
  mono?: true;
  /** The web address this run is (only http and https). */
  link?: string;
}

type Style = Omit<MarkupSegment, 'text' | 'link'>;

const MONO = /```([\s\S]+?)```/g;
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)]/gi;
const STYLE_OF = { '*': 'bold', _: 'italic', '~': 'strike' } as const;
const WORD = /[\p{L}\p{N}_]/u;

/** Text with its web addresses split out as links. */
function linked(text: string, style: Style, out: MarkupSegment[]): void {
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index ?? 0;
    if (start > last) out.push({ ...style, text: text.slice(last, start) });
    out.push({ ...style, text: match[0], link: match[0] });
    last = start + match[0].length;
  }
  if (last < text.length) out.push({ ...style, text: text.slice(last) });
}

/**
 * Inline emphasis: a marker opens where no letter or digit comes before it and a non-space follows, and
 * closes at the next same marker after a non-space where no letter or digit follows (so `snake_case`,
 * `2*3*4` and `a * b` stay as written); the content may hold the other markers.
 */
function inline(text: string, style: Style, out: MarkupSegment[]): void {
  let last = 0;
  let index = 0;
  while (index < text.length) {
    const marker = text[index] as keyof typeof STYLE_OF;
    const kind = STYLE_OF[marker];
    const before = index > 0 ? (text[index - 1] ?? '') : '';
    const next = text[index + 1] ?? '';
    if (kind && !style[kind] && !WORD.test(before) && next !== '' && !/\s/.test(next) && next !== marker) {
      let close = -1;
      for (let at = index + 2; at < text.length; at += 1) {
        const char = text[at];
        if (char === '\n') break;
        if (char === marker && !/\s/.test(text[at - 1] ?? '') && !WORD.test(text[at + 1] ?? '')) {
          close = at;
          break;
        }
      }
      if (close > index) {
        if (index > last) linked(text.slice(last, index), style, out);
        inline(text.slice(index + 1, close), { ...style, [kind]: true }, out);
        last = close + 1;
        index = close + 1;
        continue;
      }
    }
    index += 1;
  }
  if (last < text.length) linked(text.slice(last), style, out);
}

/** A message's text as segments, in order; joined, their texts are the message without its markers. */
export function parseChatMarkup(text: string): MarkupSegment[] {
  const out: MarkupSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(MONO)) {
    const start = match.index ?? 0;
    if (start > last) inline(text.slice(last, start), {}, out);
    out.push({ text: match[1] ?? '', mono: true });
    last = start + match[0].length;
  }
  if (last < text.length) inline(text.slice(last), {}, out);
  return out;
}

/** The text without its markup (previews, titles, notifications). */
export function plainChatText(text: string): string {
  return parseChatMarkup(text)
    .map((segment) => segment.text)
    .join('');
}
