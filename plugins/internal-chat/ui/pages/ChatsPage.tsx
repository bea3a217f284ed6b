import {
  companyEvent,
  skipToken,
  subscribeSocketEvent,
  useDebouncedValue,
  useNarrowScreen,
  useSession,
  useTranslation,
} from '@balcao/plugin-sdk/ui';
import { Card, Empty, Flex, Skeleton, Tabs } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useChatByUuidQuery, useChatsQuery, useDeleteChatMutation } from '../api';
import { ChatDialog } from '../components/ChatDialog';
import { ChatList } from '../components/ChatList';
import { MessagesPanel } from '../components/MessagesPanel';
import type { Chat, ChatEvent } from '../types';

/** The page's height: the content area below the top bar (56 px) and its padding. */
const PAGE_HEIGHT = 'calc(100vh - 56px - 32px)';

/**
 * `/chats` and `/chats/:uuid` (docs/product/automation.md "Internal chat"): on wide screens the chat list beside
 * the open chat's messages, on narrow ones two tabs, Chats and Messages. Deleting the open chat (here or by its
 * owner elsewhere) clears it and goes back to /chats.
 */
export default function ChatsPage() {
  const { t } = useTranslation('internal-chat');
  const narrow = useNarrowScreen();
  const navigate = useNavigate();
  const { id: uuid } = useParams();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search);
  const [pageNumber, setPageNumber] = useState(1);
  useEffect(() => setPageNumber(1), [searchParam]);
  const companyId = useSession()?.companyId;
  // a reload replaces the loaded pages with the first (api.ts): paging starts over from it
  useEffect(() => {
    if (companyId === undefined) return;
    return subscribeSocketEvent<ChatEvent>(companyEvent(companyId, 'chat'), (event) => {
      if (event.action === 'reload') setPageNumber(1);
    });
  }, [companyId]);
  const list = useChatsQuery({ searchParam, pageNumber });
  const opened = useChatByUuidQuery(uuid ?? skipToken);
  const [deleteChat] = useDeleteChatMutation();
  const [dialog, setDialog] = useState<{ open: boolean; chat?: Chat }>({ open: false });
  const [tab, setTab] = useState<'chats' | 'messages'>(uuid ? 'messages' : 'chats');

  // the list's copy is the live one (unread counts, members); the chat read by uuid fills in until it's there
  const listed = list.data?.records.find((chat) => chat.uuid === uuid);
  const selected = uuid ? (listed ?? opened.data) : undefined;
  const gone = uuid !== undefined && (opened.isError || opened.data?.deleted === true);
  useEffect(() => {
    if (gone) navigate('/chats', { replace: true });
  }, [gone, navigate]);
  useEffect(() => {
    if (!uuid) setTab('chats');
  }, [uuid]);

  const select = (chat: Chat) => {
    setTab('messages');
    navigate(`/chats/${chat.uuid}`);
  };
  const remove = async (chat: Chat) => {
    await deleteChat(chat.id);
    if (chat.uuid === uuid) navigate('/chats');
  };

  const chatList = (
    <ChatList
      chats={list.data?.records}
      hasMore={list.data?.hasMore ?? false}
      loading={list.isFetching}
      onLoadMore={() => setPageNumber((page) => page + 1)}
      selectedId={selected?.id}
      search={search}
      onSearch={setSearch}
      onSelect={select}
      onNew={() => setDialog({ open: true })}
      onEdit={(chat) => setDialog({ open: true, chat })}
      onDelete={(chat) => void remove(chat)}
    />
  );
  const messages =
    selected && !gone ? (
      <MessagesPanel key={selected.id} chat={selected} />
    ) : uuid && opened.isLoading ? (
      <Skeleton active paragraph={{ rows: 6 }} />
    ) : (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('messages.select')} />
    );

  return (
    <>
      {narrow ? (
        <Card size="small" styles={{ body: { height: PAGE_HEIGHT, display: 'flex', flexDirection: 'column' } }}>
          <Tabs
            activeKey={tab}
            onChange={(key) => setTab(key as 'chats' | 'messages')}
            items={[
              { key: 'chats', label: t('tabs.chats') },
              { key: 'messages', label: t('tabs.messages') },
            ]}
          />
          <div style={{ flex: 1, minHeight: 0 }}>{tab === 'chats' ? chatList : messages}</div>
        </Card>
      ) : (
        <Flex gap={16} style={{ height: PAGE_HEIGHT }}>
          <Card size="small" style={{ width: 340, flexShrink: 0 }} styles={{ body: { height: '100%' } }}>
            {chatList}
          </Card>
          <Card size="small" style={{ flex: 1, minWidth: 0 }} styles={{ body: { height: '100%' } }}>
            {messages}
          </Card>
        </Flex>
      )}
      <ChatDialog
        open={dialog.open}
        chat={dialog.chat}
        onClose={() => setDialog({ open: false })}
        onSaved={(chat) => {
          setDialog({ open: false });
          select(chat);
        }}
      />
    </>
  );
}
