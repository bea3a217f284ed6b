import { NotificationOutlined } from '@ant-design/icons';
import { formatDate, skipToken, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import { Badge, Button, Empty, List, Popover, Typography } from 'antd';
import { useState } from 'react';
import { useActiveAnnouncementsQuery } from '../api';
import { PRIORITY_COLORS } from './priority';

/** docs/product/tickets-and-inbox.md#constants-and-limits: the announcements popover is at most 300 px high. */
const POPOVER_MAX_HEIGHT = 300;

/**
 * The top bar's announcements (docs/product/tickets-and-inbox.md#screens-and-routes, #entities): the active ones, most urgent first, each marked by its
 * priority's colour (1 red, 2 orange, 3 grey); new ones arrive live over `company-announcement`.
 */
export function AnnouncementsPopover() {
  const { t } = useTranslation('admin');
  const user = useSession();
  const { data = [] } = useActiveAnnouncementsQuery(user ? undefined : skipToken);
  const [open, setOpen] = useState(false);
  if (!user) return null;

  const content = (
    <div style={{ maxHeight: POPOVER_MAX_HEIGHT, overflowY: 'auto', width: 'min(360px, 90vw)' }}>
      {data.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('platform.announcements.none')} />
      ) : (
        <List
          dataSource={data}
          renderItem={(item) => (
            <List.Item
              data-priority={item.priority}
              style={{ borderInlineStart: `4px solid ${PRIORITY_COLORS[item.priority]}`, paddingInlineStart: 8 }}
            >
              <List.Item.Meta
                title={
                  <span style={{ color: PRIORITY_COLORS[item.priority] }}>
                    {item.title}{' '}
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {formatDate(item.createdAt)}
                    </Typography.Text>
                  </span>
                }
                description={
                  <>
                    {item.mediaUrl ? (
                      <img
                        src={item.mediaUrl}
                        alt={item.mediaName ?? ''}
                        style={{ maxWidth: '100%', maxHeight: 120, display: 'block', marginBottom: 4 }}
                      />
                    ) : null}
                    <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{item.text}</Typography.Paragraph>
                  </>
                }
              />
            </List.Item>
          )}
        />
      )}
    </div>
  );

  return (
    <Popover
      trigger="click"
      open={open}
      onOpenChange={setOpen}
      title={t('platform.announcements.popoverTitle')}
      content={content}
      placement="bottomRight"
    >
      <Badge count={data.length} size="small" overflowCount={9}>
        <Button type="text" shape="circle" icon={<NotificationOutlined />} aria-label={t('platform.announcements.open')} />
      </Badge>
    </Popover>
  );
}
