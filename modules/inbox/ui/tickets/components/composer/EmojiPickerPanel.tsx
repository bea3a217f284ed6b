import { currentLanguage, useTranslation } from '@balcao/plugin-sdk/ui';
import { theme } from 'antd';
import EmojiPicker from 'emoji-picker-react';

/** docs/product/tickets-and-inbox.md#constants-and-limits: the quick row of reactions holds 6 emojis (👍 ❤️ 😂 😮 😢 🙏), then the full list. */
export const QUICK_REACTIONS = ['1f44d', '2764-fe0f', '1f602', '1f62e', '1f622', '1f64f'];

/** The emoji dataset in the interface's language where the picker ships one (English otherwise). */
function emojiDataLoader() {
  switch (currentLanguage()) {
    case 'pt':
      return () => import('emoji-picker-react/data/emojis-pt');
    case 'es':
      return () => import('emoji-picker-react/data/emojis-es');
    default:
      return undefined;
  }
}

/** Whether a #RRGGBB background is dark (the page's theme, read from antd's tokens). */
function isDarkBackground(color: string): boolean {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(color);
  if (!match) return false;
  const [red, green, blue] = [match[1], match[2], match[3]].map((part) => Number.parseInt(part ?? '0', 16));
  return 0.299 * (red ?? 0) + 0.587 * (green ?? 0) + 0.114 * (blue ?? 0) < 128;
}

/** Props of the picker panel. */
export interface EmojiPickerPanelProps {
  onPick(emoji: string): void;
  /** The reactions mode: the quick row first, the full list on demand. */
  reactions?: boolean;
}

/**
 * emoji-picker-react with the page's theme and language, native emojis (no image downloads). Loaded only
 * when first opened (see LazyEmojiPicker), so the picker stays out of the Tickets screen's download.
 */
export default function EmojiPickerPanel({ onPick, reactions = false }: EmojiPickerPanelProps) {
  const { t } = useTranslation('inbox');
  const { token } = theme.useToken();
  const dark = isDarkBackground(token.colorBgContainer);
  const emojiData = emojiDataLoader();
  return (
    <EmojiPicker
      onEmojiClick={(emoji) => onPick(emoji.emoji)}
      onReactionClick={(emoji) => onPick(emoji.emoji)}
      emojiStyle="native"
      theme={dark ? 'dark' : 'light'}
      lazyLoadEmojis
      reactionsDefaultOpen={reactions}
      reactions={QUICK_REACTIONS}
      allowExpandReactions
      previewConfig={{ showPreview: false }}
      width={320}
      height={380}
      {...(emojiData ? { emojiData } : {})}
      labels={{
        searchPlaceholder: t('tickets.emoji.search'),
        searchLabel: t('tickets.emoji.search'),
        searchResultsNone: t('tickets.emoji.none'),
        reactions: t('tickets.emoji.reactions'),
        expandReactions: t('tickets.emoji.more'),
        loading: t('tickets.emoji.loading'),
      }}
    />
  );
}
