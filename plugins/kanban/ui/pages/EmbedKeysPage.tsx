import { CodeOutlined, DeleteOutlined, EditOutlined, KeyOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons';
import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Empty, Flex, Input, Modal, Popconfirm, Skeleton, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useMemo, useState } from 'react';
import {
  useDeleteEmbedKeyMutation,
  useEmbedKeysQuery,
  useKanbanLanesQuery,
  useRevokeEmbedKeyMutation,
  useRotateEmbedSecretMutation,
} from '../api';
import { EmbedKeyDialog } from '../components/EmbedKeyDialog';
import type { EmbedKey } from '../types';

/** The `<script>` tag an admin pastes into the other site (docs/kanban.md "Embedding"). */
export function embedSnippet(key: string, appOrigin: string): string {
  return [
    '<div id="balcao-kanban" style="height: 600px"></div>',
    `<script async src="${appOrigin}/plugins/kanban/widget/kanban-widget.js"`,
    `  data-key="${key}" data-target="#balcao-kanban" data-lang="pt" data-theme="light"></script>`,
  ].join('\n');
}

/** Embedded kanban (/kanban-embed-keys, admins): the keys of the widget, their snippet and secret. */
export function EmbedKeysPage() {
  const { t } = useTranslation('kanban');
  const keys = useEmbedKeysQuery();
  const lanes = useKanbanLanesQuery();
  const [revoke] = useRevokeEmbedKeyMutation();
  const [rotate] = useRotateEmbedSecretMutation();
  const [remove] = useDeleteEmbedKeyMutation();
  const [dialog, setDialog] = useState<{ open: boolean; key: EmbedKey | null }>({ open: false, key: null });
  const [shown, setShown] = useState<EmbedKey | null>(null);
  const laneNames = useMemo(() => new Map((lanes.data ?? []).map((lane) => [lane.id, lane.name])), [lanes.data]);

  useEffect(() => {
    if (keys.error) showError(keys.error);
  }, [keys.error]);

  const act = async (run: () => Promise<unknown>, done: string) => {
    try {
      await run();
      toast.success(t(done));
    } catch (error) {
      showError(error);
    }
  };
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(t('toasts.copied'));
    } catch (error) {
      showError(error);
    }
  };

  const columns: ColumnsType<EmbedKey> = [
    { key: 'name', title: t('embed.fields.name'), dataIndex: 'name' },
    {
      key: 'origins',
      title: t('embed.fields.origins'),
      render: (_value, key) => (
        <Space orientation="vertical" size={0}>
          {key.allowedOrigins.map((origin) => (
            <Typography.Text key={origin} code>
              {origin}
            </Typography.Text>
          ))}
        </Space>
      ),
    },
    {
      key: 'access',
      title: t('embed.fields.access'),
      render: (_value, key) => (
        <Space size={4} wrap>
          <Tag color={key.mayMove ? 'blue' : 'default'}>{t(key.mayMove ? 'embed.mayMove' : 'embed.readOnly')}</Tag>
          {key.signedUsers ? <Tag color="purple">{t('embed.signed')}</Tag> : null}
        </Space>
      ),
    },
    {
      key: 'lanes',
      title: t('embed.fields.lanes'),
      responsive: ['md'],
      render: (_value, key) =>
        key.laneIds ? key.laneIds.map((id) => laneNames.get(id) ?? `#${id}`).join(', ') : t('embed.allLanes'),
    },
    {
      key: 'lastUsed',
      title: t('embed.fields.lastUsed'),
      responsive: ['lg'],
      render: (_value, key) => (key.lastUsedAt ? new Date(key.lastUsedAt).toLocaleString() : t('embed.never')),
    },
    {
      key: 'status',
      title: t('embed.fields.status'),
      render: (_value, key) => (
        <Tag color={key.revoked ? 'red' : 'green'}>{t(key.revoked ? 'embed.revoked' : 'embed.active')}</Tag>
      ),
    },
    {
      key: 'actions',
      title: t('embed.fields.actions'),
      align: 'center',
      render: (_value, key) => (
        <Space size={2}>
          <Tooltip title={t('embed.show')}>
            <Button type="text" icon={<CodeOutlined />} aria-label={t('embed.show')} onClick={() => setShown(key)} />
          </Tooltip>
          <Tooltip title={t('embed.edit')}>
            <Button
              type="text"
              icon={<EditOutlined />}
              aria-label={t('embed.edit')}
              disabled={key.revoked}
              onClick={() => setDialog({ open: true, key })}
            />
          </Tooltip>
          <Popconfirm
            title={t('embed.confirmRotate')}
            okText={t('embed.ok')}
            cancelText={t('embed.cancel')}
            onConfirm={() => act(() => rotate(key.id).unwrap(), 'toasts.secretRotated')}
          >
            <Tooltip title={t('embed.rotate')}>
              <Button type="text" icon={<KeyOutlined />} aria-label={t('embed.rotate')} disabled={key.revoked} />
            </Tooltip>
          </Popconfirm>
          <Popconfirm
            title={t('embed.confirmRevoke')}
            okText={t('embed.ok')}
            cancelText={t('embed.cancel')}
            onConfirm={() => act(() => revoke(key.id).unwrap(), 'toasts.keyRevoked')}
          >
            <Tooltip title={t('embed.revoke')}>
              <Button type="text" danger icon={<StopOutlined />} aria-label={t('embed.revoke')} disabled={key.revoked} />
            </Tooltip>
          </Popconfirm>
          <Popconfirm
            title={t('embed.confirmDelete')}
            okText={t('embed.ok')}
            cancelText={t('embed.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => act(() => remove(key.id).unwrap(), 'toasts.keyDeleted')}
          >
            <Tooltip title={t('embed.delete')}>
              <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('embed.delete')} />
            </Tooltip>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  const appOrigin = globalThis.location?.origin ?? '';
  return (
    <Card>
      <Flex wrap gap={8} align="center" justify="space-between" style={{ marginBottom: 12 }}>
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('embed.title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('embed.intro')}</Typography.Text>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, key: null })}>
          {t('embed.add')}
        </Button>
      </Flex>
      {keys.isLoading ? (
        <Skeleton active paragraph={{ rows: 5 }} />
      ) : (
        <Table<EmbedKey>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={keys.data ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('embed.empty')} /> }}
        />
      )}
      <EmbedKeyDialog
        open={dialog.open}
        embedKey={dialog.key}
        onClose={(saved) => {
          setDialog({ open: false, key: null });
          if (saved && !dialog.key) setShown(saved);
        }}
      />
      <Modal open={shown !== null} title={shown?.name} footer={null} onCancel={() => setShown(null)} width={640}>
        {shown ? (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Typography.Text strong>{t('embed.snippet')}</Typography.Text>
            <Input.TextArea readOnly autoSize value={embedSnippet(shown.key, appOrigin)} data-testid="embed-snippet" />
            <Button onClick={() => copy(embedSnippet(shown.key, appOrigin))}>{t('embed.copy')}</Button>
            {shown.signedUsers ? (
              <>
                <Typography.Text strong>{t('embed.secret')}</Typography.Text>
                <Input.Password readOnly value={shown.secret} />
                <Button onClick={() => copy(shown.secret)}>{t('embed.copy')}</Button>
              </>
            ) : null}
          </Space>
        ) : null}
      </Modal>
    </Card>
  );
}
