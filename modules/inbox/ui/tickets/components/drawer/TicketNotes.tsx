import { DeleteOutlined } from '@ant-design/icons';
import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Empty, Flex, Input, Popconfirm, Skeleton, Typography, theme } from 'antd';
import { useState } from 'react';
import type { Ticket } from '../../../../shared/types';
import { useAddNoteMutation, useDeleteNoteMutation, useListNotesQuery } from '../../api/notes';
import { formatDayTime } from '../../logic/format';

/** docs/product/tickets-and-inbox.md#validation: a ticket note needs at least 2 characters. */
export const MIN_NOTE_LENGTH = 2;

/** The notes of the ticket's contact (docs/product/tickets-and-inbox.md#screens-and-routes contact drawer): the list, and a new note of 2+ characters. */
export function TicketNotes({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation('inbox');
  const { token } = theme.useToken();
  const ids = { ticketId: ticket.id, contactId: ticket.contactId };
  const { data: notes = [], isLoading } = useListNotesQuery(ids);
  const [addNote, { isLoading: adding }] = useAddNoteMutation();
  const [deleteNote] = useDeleteNoteMutation();
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const tooShort = text.trim().length < MIN_NOTE_LENGTH;

  const add = async () => {
    setTouched(true);
    if (tooShort) return;
    try {
      await addNote({ ...ids, note: text.trim() }).unwrap();
      setText('');
      setTouched(false);
      toast.success(t('tickets.notes.added'));
    } catch (error) {
      showError(error);
    }
  };

  const remove = async (id: number) => {
    try {
      await deleteNote({ ...ids, id }).unwrap();
      toast.success(t('tickets.notes.deleted'));
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Flex vertical gap={8}>
      <Input.TextArea
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={t('tickets.notes.placeholder')}
        aria-label={t('tickets.notes.placeholder')}
        autoSize={{ minRows: 2, maxRows: 5 }}
        status={touched && tooShort ? 'error' : undefined}
      />
      {touched && tooShort ? (
        <Typography.Text type="danger" style={{ fontSize: 12 }}>
          {t('tickets.notes.tooShort', { min: MIN_NOTE_LENGTH })}
        </Typography.Text>
      ) : null}
      <Button type="primary" onClick={() => void add()} loading={adding} block>
        {t('tickets.notes.add')}
      </Button>
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : notes.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('tickets.notes.empty')} />
      ) : (
        notes.map((note) => (
          <div key={note.id} style={{ padding: 8, borderRadius: 6, background: token.colorFillQuaternary }}>
            <Flex justify="space-between" align="flex-start" gap={4}>
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 4, flex: 1 }}>
                {note.note}
              </Typography.Paragraph>
              <Popconfirm
                title={t('tickets.notes.deleteConfirm')}
                okText={t('tickets.common.yes')}
                cancelText={t('tickets.common.no')}
                onConfirm={() => remove(note.id)}
              >
                <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('tickets.notes.delete')} />
              </Popconfirm>
            </Flex>
            <Typography.Text type="secondary" style={{ fontSize: 11 }}>
              {note.user?.name ?? ''} · {formatDayTime(note.createdAt)}
            </Typography.Text>
          </div>
        ))
      )}
    </Flex>
  );
}
