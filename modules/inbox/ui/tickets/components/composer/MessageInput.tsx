import {
  CameraOutlined,
  ContactsOutlined,
  LockOutlined,
  PaperClipOutlined,
  SendOutlined,
  SignatureOutlined,
  SmileOutlined,
} from '@ant-design/icons';
import { PluginSlot, showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Dropdown, Flex, type GetRef, Input, Popover, Tooltip, Typography, theme } from 'antd';
import { type KeyboardEvent, useCallback, useMemo, useRef, useState } from 'react';
import { fillMessageVariables } from '../../../../shared/message-variables';
import type { Message, QuickMessage, Ticket } from '../../../../shared/types';
import { useListQuickMessagesForComposerQuery } from '../../../directory/api/quick-messages';
import { type SendMessageArgs, useSendMessageMutation } from '../../api/messages';
import { useLocalFlag } from '../../hooks/useLocalFlag';
import { useViewer } from '../../hooks/useViewer';
import {
  contactMessageBody,
  isSendableText,
  mediaMessageForm,
  type SendOptions,
  SIGN_PREFERENCE_KEY,
  textMessageBody,
  type VCardContact,
} from '../../logic/outgoing';
import { matchQuickReplies, quickReplySearch } from '../../logic/quick-replies';
import { canCompose } from '../../logic/ticket-rules';
import { CameraModal } from '../modals/CameraModal';
import { MediaPreviewModal } from '../modals/MediaPreviewModal';
import { SendContactModal } from '../modals/SendContactModal';
import { useAgentTypingNotice } from '../ticket/webchat-typing';
import { AudioRecorder } from './AudioRecorder';
import { LazyEmojiPicker } from './LazyEmojiPicker';
import { QuickRepliesPanel } from './QuickRepliesPanel';
import { ReplyPreview } from './ReplyPreview';

/** Props of the composer. */
export interface MessageInputProps {
  ticket: Ticket;
  replyTo: Message | null;
  onClearReply(): void;
  /** Files waiting in the media preview (attached, captured, dropped on the view). */
  files: File[];
  onFilesChange(files: File[]): void;
}

/**
 * The composer (docs/product/tickets-and-inbox.md#screens-and-routes): text (Enter sends, Shift+Enter breaks the line), emoji, attachments with a
 * preview and caption, camera, contact card, audio recorder, '/' quick replies, private and signature
 * toggles, the reply bar, the buttons features add (`composerToolbar` slot) and their notices above it
 * (`composerNotice`: a channel's closed reply window). Disabled unless the ticket is
 * open or a group.
 */
export function MessageInput({ ticket, replyTo, onClearReply, files, onFilesChange }: MessageInputProps) {
  const { t } = useTranslation('inbox');
  const { token } = theme.useToken();
  const viewer = useViewer();
  const enabled = canCompose(ticket.status);
  const [text, setText] = useState('');
  const [isPrivate, setIsPrivate] = useState(false);
  const [signPreference, setSignPreference] = useLocalFlag(SIGN_PREFERENCE_KEY, true);
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [cameraOpen, setCameraOpen] = useState(false);
  const [contactOpen, setContactOpen] = useState(false);
  const [recording, setRecording] = useState(false);
  const [caption, setCaption] = useState('');
  const [activeReply, setActiveReply] = useState(0);
  const fileInput = useRef<HTMLInputElement>(null);
  const textArea = useRef<GetRef<typeof Input.TextArea>>(null);
  const [sendMessage, { isLoading: sending }] = useSendMessageMutation();
  // webchat: the visitor sees "typing…" while the agent writes a public message
  const typingNotice = useAgentTypingNotice(ticket);
  // the composerToolbar slot's way in: text goes at the end, as the emoji picker's does
  const insertText = useCallback((inserted: string) => setText((current) => current + inserted), []);

  // one call for the whole list (from the first '/'), filtered here as the shortcode grows: instant, and cached
  const { data: quickMessages = [], isFetching: quickLoading } = useListQuickMessagesForComposerQuery('', {
    skip: !enabled || !text.startsWith('/'),
  });
  const quickSearch = enabled ? quickReplySearch(text, quickMessages) : null;
  const quickReplies = useMemo(
    () => (quickSearch === null ? [] : matchQuickReplies(quickMessages, quickSearch)),
    [quickMessages, quickSearch],
  );

  // variables (`{{name}}` …) are filled by the server when the message is stored; this shows the same text
  const preview = useMemo(() => {
    if (isPrivate || !/\{\{\s*[A-Za-z_]+\s*\}\}/.test(text)) return null;
    const filled = fillMessageVariables(text, {
      contact: ticket.contact,
      user: { name: viewer.user.name },
      ticket,
      queue: ticket.queue,
      connection: ticket.whatsapp,
    });
    return filled === text ? null : filled;
  }, [text, isPrivate, ticket, viewer.user.name]);

  const options: SendOptions = {
    quotedMsgId: replyTo?.id ?? null,
    isPrivate,
    signMessage: viewer.settings.sendSignMessage && signPreference && !isPrivate,
  };

  const send = useCallback(
    async (body: SendMessageArgs['body']): Promise<boolean> => {
      try {
        await sendMessage({ ticketId: ticket.id, ticketUuid: ticket.uuid, body }).unwrap();
        onClearReply();
        return true;
      } catch (error) {
        showError(error);
        return false;
      }
    },
    [sendMessage, ticket.id, ticket.uuid, onClearReply],
  );

  const sendText = async () => {
    if (!enabled || !isSendableText(text) || sending) return;
    const draft = text;
    setText('');
    typingNotice?.stop();
    if (!(await send(textMessageBody(draft, options)))) setText(draft);
    textArea.current?.focus();
  };

  const sendFiles = async (toSend: File[], withCaption: string) => {
    if (await send(mediaMessageForm(toSend, withCaption, options))) {
      onFilesChange([]);
      setCaption('');
    }
  };

  const pickQuickReply = async (item: QuickMessage) => {
    setActiveReply(0);
    if (item.mediaUrl) {
      try {
        const response = await fetch(item.mediaUrl, { credentials: 'include' });
        const blob = await response.blob();
        setText('');
        setCaption(item.message);
        onFilesChange([new File([blob], item.mediaName ?? 'arquivo', { type: blob.type })]);
      } catch {
        toast.error(t('tickets.quickReplies.mediaFailed'));
        setText(item.message);
      }
      return;
    }
    setText(item.message);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (quickSearch !== null && quickReplies.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActiveReply((index) => (index + step + quickReplies.length) % quickReplies.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        const item = quickReplies[Math.min(activeReply, quickReplies.length - 1)];
        if (item) void pickQuickReply(item);
        return;
      }
    }
    if (event.key === 'Escape' && quickSearch !== null) {
      setText('');
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void sendText();
    }
  };

  const sendContact = async (contact: VCardContact) => {
    await send(contactMessageBody(contact, options));
  };

  if (!enabled) {
    return (
      <Flex
        align="center"
        justify="center"
        style={{ padding: 16, borderTop: `1px solid ${token.colorSplit}`, background: token.colorFillQuaternary }}
      >
        <Typography.Text type="secondary">{t('tickets.composer.disabled')}</Typography.Text>
      </Flex>
    );
  }

  const attachMenu = {
    items: [
      { key: 'file', icon: <PaperClipOutlined />, label: t('tickets.composer.attachFile') },
      { key: 'camera', icon: <CameraOutlined />, label: t('tickets.composer.camera') },
      { key: 'contact', icon: <ContactsOutlined />, label: t('tickets.composer.sendContact') },
    ],
    onClick: ({ key }: { key: string }) => {
      if (key === 'file') fileInput.current?.click();
      else if (key === 'camera') setCameraOpen(true);
      else setContactOpen(true);
    },
  };

  return (
    <div style={{ borderTop: `1px solid ${token.colorSplit}`, background: token.colorBgContainer }}>
      {replyTo ? <ReplyPreview message={replyTo} contactName={ticket.contact.name} onClear={onClearReply} /> : null}
      <PluginSlot name="composerNotice" props={{ ticket }} />
      {quickSearch !== null ? (
        <QuickRepliesPanel
          items={quickReplies}
          loading={quickLoading && quickMessages.length === 0}
          activeIndex={activeReply}
          onPick={(item) => void pickQuickReply(item)}
          onHover={setActiveReply}
        />
      ) : null}
      {preview !== null ? (
        <div
          data-testid="composer-preview"
          style={{ padding: '6px 12px 0', color: token.colorTextSecondary, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        >
          <Typography.Text type="secondary" strong style={{ marginInlineEnd: 6 }}>
            {t('tickets.composer.preview')}
          </Typography.Text>
          {preview}
        </div>
      ) : null}
      <Flex align="flex-end" gap={4} style={{ padding: 8 }}>
        {recording ? null : (
          <>
            <Popover
              open={emojiOpen}
              onOpenChange={setEmojiOpen}
              trigger="click"
              placement="topLeft"
              styles={{ container: { padding: 0 } }}
              // the picker mounts on first open (and leaves when hidden): its chunk loads only when asked for
              destroyOnHidden
              content={<LazyEmojiPicker onPick={(emoji) => setText((current) => current + emoji)} />}
            >
              <Button type="text" shape="circle" icon={<SmileOutlined />} aria-label={t('tickets.composer.emoji')} />
            </Popover>
            <Dropdown menu={attachMenu} trigger={['click']} placement="topLeft">
              <Button type="text" shape="circle" icon={<PaperClipOutlined />} aria-label={t('tickets.composer.attach')} />
            </Dropdown>
            <PluginSlot name="composerToolbar" props={{ ticket, insertText, disabled: !enabled || sending }} />
            <input
              ref={fileInput}
              type="file"
              multiple
              hidden
              aria-hidden
              onChange={(event) => {
                const picked = Array.from(event.target.files ?? []);
                event.target.value = '';
                if (picked.length > 0) onFilesChange([...files, ...picked]);
              }}
            />
            <Input.TextArea
              ref={textArea}
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                setActiveReply(0);
                if (!isPrivate) typingNotice?.keystroke(event.target.value);
              }}
              onKeyDown={onKeyDown}
              autoSize={{ minRows: 1, maxRows: 6 }}
              placeholder={isPrivate ? t('tickets.composer.privatePlaceholder') : t('tickets.composer.placeholder')}
              aria-label={t('tickets.composer.placeholder')}
              style={{ flex: 1, background: isPrivate ? token.colorWarningBg : undefined }}
            />
            <Tooltip title={isPrivate ? t('tickets.composer.privateOn') : t('tickets.composer.privateOff')}>
              <Button
                type={isPrivate ? 'primary' : 'text'}
                shape="circle"
                icon={<LockOutlined />}
                aria-pressed={isPrivate}
                aria-label={t('tickets.composer.private')}
                onClick={() => setIsPrivate((value) => !value)}
              />
            </Tooltip>
            {viewer.settings.sendSignMessage ? (
              <Tooltip title={signPreference ? t('tickets.composer.signOn') : t('tickets.composer.signOff')}>
                <Button
                  type={signPreference ? 'primary' : 'text'}
                  ghost={signPreference}
                  shape="circle"
                  icon={<SignatureOutlined />}
                  aria-pressed={signPreference}
                  aria-label={t('tickets.composer.sign')}
                  onClick={() => setSignPreference(!signPreference)}
                />
              </Tooltip>
            ) : null}
          </>
        )}
        {isSendableText(text) && !recording ? (
          <Tooltip title={t('tickets.composer.send')}>
            <Button
              type="primary"
              shape="circle"
              icon={<SendOutlined />}
              aria-label={t('tickets.composer.send')}
              loading={sending}
              onClick={() => void sendText()}
            />
          </Tooltip>
        ) : (
          <AudioRecorder
            channel={ticket.channel}
            disabled={sending}
            onActiveChange={setRecording}
            onRecorded={async (file) => {
              await send(mediaMessageForm([file], '', options));
            }}
          />
        )}
      </Flex>
      <MediaPreviewModal
        files={files}
        initialCaption={caption}
        sending={sending}
        onRemove={(index) => onFilesChange(files.filter((_, position) => position !== index))}
        onCancel={() => {
          onFilesChange([]);
          setCaption('');
        }}
        onSend={(toSend, withCaption) => void sendFiles(toSend, withCaption)}
      />
      <CameraModal open={cameraOpen} onClose={() => setCameraOpen(false)} onCapture={(file) => onFilesChange([...files, file])} />
      <SendContactModal open={contactOpen} onClose={() => setContactOpen(false)} onSend={sendContact} />
    </div>
  );
}
