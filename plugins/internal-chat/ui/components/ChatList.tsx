import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useLoadMoreOnScroll, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import { Badge, Button, Empty, Flex, Input, List, Popconfirm, Skeleton, Typography, theme } from 'antd';
import { unreadsOf } from '../api';
import type { Chat } from '../types';

export interface ChatListProps {
  chats: Chat[] | undefined;
  hasMore: boolean;
  loading: boolean;
  onLoadMore(): void;
  selectedId: number | undefined;
  search: string;
  onSearch(text: string): void;
  onSelect(chat: Chat): void;
  onNew(): void;
  onEdit(chat: Chat): void;
  onDelete(chat: Chat): void;
}

/** The user's chats, latest first, with their unread counts; edit and delete show to each chat's owner only. */
export function ChatList(props: ChatListProps) {
  const { t } = useTranslation('internal-chat');
  const { token } = theme.useToken();
  const me = useSession();
  const { ref, onScroll } = useLoadMoreOnScroll<HTMLDivElement>({
    hasMore: props.hasMore,
    loading: props.loading,
    onLoadMore: props.onLoadMore,
  });
  return (
    <Flex vertical gap={8} style={{ height: '100%', minHeight: 0 }}>
      <Flex gap={8}>
        <Input.Search
          allowClear
          placeholder={t('list.search')}
          value={props.search}
          onChange={(event) => props.onSearch(event.target.value)}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={props.onNew}>
          {t('list.new')}
        </Button>
      </Flex>
      <div ref={ref} onScroll={onScroll} style={{ flex: 1, overflowY: 'auto', minHeight: 0 }} data-testid="chat-list">
        {props.chats === undefined ? (
          <Skeleton active paragraph={{ rows: 6 }} />
        ) : props.chats.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('list.empty')} />
        ) : (
          <List
            dataSource={props.chats}
            renderItem={(chat) => {
              const unreads = unreadsOf(chat, me?.id);
              const owner = chat.ownerId === me?.id;
              return (
                <List.Item
                  data-testid={`chat-item-${chat.id}`}
                  onClick={() => props.onSelect(chat)}
                  style={{
                    cursor: 'pointer',
                    paddingInline: 8,
                    background: chat.id === props.selectedId ? token.colorPrimaryBg : undefined,
                    borderRadius: token.borderRadius,
                  }}
                  actions={
                    owner
                      ? [
                          <Button
                            key="edit"
                            type="text"
                            size="small"
                            icon={<EditOutlined />}
                            aria-label={t('list.edit')}
                            onClick={(event) => {
                              event.stopPropagation();
                              props.onEdit(chat);
                            }}
                          />,
                          <Popconfirm
                            key="delete"
                            title={t('list.confirmDelete')}
                            okText={t('list.delete')}
                            cancelText={t('dialog.cancel')}
                            onConfirm={(event) => {
                              event?.stopPropagation();
                              props.onDelete(chat);
                            }}
                            onCancel={(event) => event?.stopPropagation()}
                          >
                            <Button
                              type="text"
                              size="small"
                              danger
                              icon={<DeleteOutlined />}
                              aria-label={t('list.delete')}
                              onClick={(event) => event.stopPropagation()}
                            />
                          </Popconfirm>,
                        ]
                      : []
                  }
                >
                  <List.Item.Meta
                    title={
                      <Flex justify="space-between" gap={8}>
                        <Typography.Text strong ellipsis>
                          {chat.title}
                        </Typography.Text>
                        <Badge count={unreads} aria-label={t('list.unread', { count: unreads })} />
                      </Flex>
                    }
                    description={
                      <Typography.Text type="secondary" ellipsis style={{ maxWidth: '100%' }}>
                        {chat.lastMessage || t('list.members', { count: chat.users.length })}
                      </Typography.Text>
                    }
                  />
                </List.Item>
              );
            }}
          />
        )}
        {props.loading && props.chats !== undefined ? <Skeleton active paragraph={{ rows: 2 }} /> : null}
      </div>
    </Flex>
  );
}
