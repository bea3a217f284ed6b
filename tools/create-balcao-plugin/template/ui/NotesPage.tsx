import { Can, showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Empty, Input, List, Skeleton, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useCreate__PASCAL__NoteMutation, useList__PASCAL__NotesQuery } from './api';

/** The plugin's page: the company's notes, and a field to add one for who may write. */
export function NotesPage() {
  const { t } = useTranslation('__ID__');
  const { data, isLoading, error } = useList__PASCAL__NotesQuery();
  const [create, { isLoading: saving }] = useCreate__PASCAL__NoteMutation();
  const [text, setText] = useState('');
  useEffect(() => {
    if (error) showError(error);
  }, [error]);

  const add = async () => {
    try {
      await create({ text: text.trim() }).unwrap();
      setText('');
      toast.success(t('saved'));
    } catch (failure) {
      showError(failure);
    }
  };

  return (
    <Card>
      <Typography.Title level={3}>{t('title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('subtitle')}</Typography.Paragraph>
      <Can permission="__ID__:write">
        <Space.Compact style={{ width: '100%', marginBottom: 16 }}>
          <Input
            value={text}
            maxLength={200}
            placeholder={t('placeholder')}
            onChange={(event) => setText(event.target.value)}
            onPressEnter={add}
          />
          <Button type="primary" loading={saving} disabled={!text.trim()} onClick={add}>
            {t('add')}
          </Button>
        </Space.Compact>
      </Can>
      {isLoading ? (
        <Skeleton active />
      ) : (
        <List
          dataSource={data?.notes ?? []}
          locale={{ emptyText: <Empty description={t('empty')} /> }}
          renderItem={(note) => (
            <List.Item>
              <Typography.Text ellipsis>{note.text}</Typography.Text>
              {note.reviewed ? <Tag color="green">{t('reviewed')}</Tag> : <Tag>{t('pending')}</Tag>}
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
