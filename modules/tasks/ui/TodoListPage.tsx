import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Empty, Flex, Input, Popconfirm, Tooltip, Typography } from 'antd';
import { type FormEvent, useState } from 'react';
import { addTask, editTask, removeTask, type Task } from './task-store';
import { useTasks } from './useTasks';

/** The time of a task's last change, in the user's language (date and time, short). */
function formatUpdatedAt(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'short' }).format(date);
}

/**
 * `/todolist` (docs/product/automation.md "The task list"): one text box ("Nova tarefa") that adds a task,
 * or saves the one being edited; each task with its text, the time it last changed, edit and delete. Blank
 * text is ignored. Everything stays on this device. On a narrow screen the box and its button wrap and the
 * actions sit under the text.
 */
export function TodoListPage() {
  const { t, i18n } = useTranslation('tasks');
  const { tasks, update } = useTasks();
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<Task | null>(null);

  const keep = (change: Parameters<typeof update>[0]) => {
    if (!update(change)) toast.error(t('storageFull'));
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!text.trim()) return;
    if (editing) {
      const id = editing.id;
      keep((list, now) => editTask(list, id, text, now));
      setEditing(null);
    } else {
      keep((list, now, newId) => addTask(list, text, now, newId));
    }
    setText('');
  };

  const startEditing = (task: Task) => {
    setEditing(task);
    setText(task.text);
  };

  const cancelEditing = () => {
    setEditing(null);
    setText('');
  };

  return (
    <Flex vertical gap={12} style={{ padding: 8, maxWidth: 880 }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('title')}
      </Typography.Title>
      <Card size="small">
        <form onSubmit={submit}>
          <Flex gap={8} wrap>
            <Input
              value={text}
              onChange={(event) => setText(event.target.value)}
              placeholder={t('newTask')}
              aria-label={t('newTask')}
              maxLength={1000}
              style={{ flex: '1 1 220px', minWidth: 0 }}
              onKeyDown={(event) => {
                if (event.key === 'Escape' && editing) cancelEditing();
              }}
            />
            <Flex gap={8}>
              {editing ? <Button onClick={cancelEditing}>{t('cancel')}</Button> : null}
              <Button type="primary" htmlType="submit" disabled={!text.trim()}>
                {editing ? t('save') : t('add')}
              </Button>
            </Flex>
          </Flex>
        </form>
      </Card>
      <Card size="small" styles={{ body: { padding: tasks.length ? '0 12px' : 12 } }}>
        {tasks.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} />
        ) : (
          <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {tasks.map((task, index) => (
              <li
                key={task.id}
                style={{
                  padding: '10px 0',
                  borderTop: index === 0 ? undefined : '1px solid rgba(128,128,128,0.2)',
                  background: editing?.id === task.id ? 'rgba(128,128,128,0.08)' : undefined,
                }}
              >
                <Flex gap={8} align="center" wrap>
                  <Flex vertical style={{ flex: '1 1 200px', minWidth: 0 }}>
                    <Typography.Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{task.text}</Typography.Text>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {t('updatedAt', { time: formatUpdatedAt(task.updatedAt, i18n.resolvedLanguage ?? 'pt') })}
                    </Typography.Text>
                  </Flex>
                  <Flex gap={4} style={{ marginLeft: 'auto' }}>
                    <Tooltip title={t('edit')}>
                      <Button type="text" icon={<EditOutlined />} aria-label={t('edit')} onClick={() => startEditing(task)} />
                    </Tooltip>
                    <Popconfirm
                      title={t('deleteConfirm')}
                      okText={t('delete')}
                      cancelText={t('cancel')}
                      okButtonProps={{ danger: true }}
                      onConfirm={() => {
                        keep((list) => removeTask(list, task.id));
                        if (editing?.id === task.id) cancelEditing();
                      }}
                    >
                      <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('delete')} />
                    </Popconfirm>
                  </Flex>
                </Flex>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('deviceOnly')}
      </Typography.Text>
    </Flex>
  );
}
