import { PaperClipOutlined } from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Flex, Spin, Typography, theme } from 'antd';
import type { QuickMessage } from '../../../../shared/types';
import { quickReplyLabel } from '../../logic/quick-replies';

/** Props of the '/' list. */
export interface QuickRepliesPanelProps {
  items: QuickMessage[];
  loading: boolean;
  activeIndex: number;
  onPick(item: QuickMessage): void;
  onHover(index: number): void;
}

/** The quick replies matching the typed shortcode (docs/product/tickets-and-inbox.md#screens-and-routes), each cut to 90 characters. */
export function QuickRepliesPanel({ items, loading, activeIndex, onPick, onHover }: QuickRepliesPanelProps) {
  const { t } = useTranslation('inbox');
  const { token } = theme.useToken();
  return (
    <div
      role="listbox"
      aria-label={t('tickets.quickReplies.title')}
      style={{
        maxHeight: 220,
        overflowY: 'auto',
        borderTop: `1px solid ${token.colorSplit}`,
        background: token.colorBgElevated,
      }}
    >
      {loading ? (
        <Flex justify="center" style={{ padding: 8 }}>
          <Spin size="small" />
        </Flex>
      ) : items.length === 0 ? (
        <Typography.Text type="secondary" style={{ display: 'block', padding: '8px 12px' }}>
          {t('tickets.quickReplies.none')}
        </Typography.Text>
      ) : (
        items.map((item, index) => (
          <div
            key={item.id}
            role="option"
            tabIndex={-1}
            aria-selected={index === activeIndex}
            onMouseDown={(event) => {
              // keep the focus in the text box
              event.preventDefault();
              onPick(item);
            }}
            onMouseEnter={() => onHover(index)}
            style={{
              padding: '6px 12px',
              cursor: 'pointer',
              background: index === activeIndex ? token.colorPrimaryBg : undefined,
            }}
          >
            {item.mediaUrl ? <PaperClipOutlined style={{ marginInlineEnd: 6 }} /> : null}
            {quickReplyLabel(item)}
          </div>
        ))
      )}
    </div>
  );
}
