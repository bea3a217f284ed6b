import { MessageOutlined } from '@ant-design/icons';
import { type ComponentSlotProps, subscribeSocketEvent, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import { Badge, Button, Empty, List, Popover, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { LATEST_CHATS, unreadsOf, useChatsQuery } from '../api';
import { playChatSound, showChatNotification } from '../notify';
import type { ChatEvent } from '../types';

/** The popover is at most this high, as the top bar's other popovers. */
const POPOVER_MAX_HEIGHT = 300;

/**
 * The top bar's internal-chat popover (docs/product/tickets-and-inbox.md "Top bar"): the latest chats with the
 * user's unread count in each, and the total on its button. While the tab is in the background, a colleague's
 * message plays the chime at the top bar's volume and shows a desktop notification.
 */
export default function ChatPopover(_props: ComponentSlotProps['topBar']) {
  const { t } = useTranslation('internal-chat');
  const me = useSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const { data } = useChatsQuery(LATEST_CHATS, { skip: !me });

  useEffect(() => {
    if (!me) return;
    return subscribeSocketEvent<ChatEvent>(`company-${me.companyId}-chat`, (event) => {
      if (event.action !== 'new-message' || event.newMessage.senderId === me.id) return;
      if (document.visibilityState === 'visible') return;
      playChatSound();
      const { newMessage, chat } = event;
      showChatNotification({
        title: t('notification.title', { name: newMessage.sender?.name ?? '', chat: chat.title }),
        body: newMessage.message || t('notification.file', { name: newMessage.mediaName ?? '' }),
        tag: `chat-${chat.id}`,
        onClick: () => navigate(`/chats/${chat.uuid}`),
      });
    });
  }, [me, navigate, t]);

  if (!me) return null;
  const content = (
    <div style={{ maxHeight: POPOVER_MAX_HEIGHT, overflowY: 'auto', width: 'min(340px, 90vw)' }}>
      {data === undefined ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : data.records.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('popover.empty')} />
      ) : (
        <List
          size="small"
          dataSource={data.records}
          renderItem={(chat) => (
            <List.Item
              style={{ cursor: 'pointer' }}
              onClick={() => {
                setOpen(false);
                navigate(`/chats/${chat.uuid}`);
              }}
              extra={<Badge count={unreadsOf(chat, me.id)} />}
            >
              <List.Item.Meta
                title={<Typography.Text ellipsis>{chat.title}</Typography.Text>}
                description={
                  <Typography.Text type="secondary" ellipsis style={{ maxWidth: 240 }}>
                    {chat.lastMessage}
                  </Typography.Text>
                }
              />
            </List.Item>
          )}
        />
      )}
      <Button
        type="link"
        block
        onClick={() => {
          setOpen(false);
          navigate('/chats');
        }}
      >
        {t('popover.seeAll')}
      </Button>
    </div>
  );
  return (
    <Popover
      trigger="click"
      open={open}
      onOpenChange={setOpen}
      title={t('popover.title')}
      content={content}
      placement="bottomRight"
    >
      <Badge count={data?.unreads ?? 0} size="small" overflowCount={99}>
        <Button type="text" shape="circle" icon={<MessageOutlined />} aria-label={t('popover.open')} />
      </Badge>
    </Popover>
  );
}
