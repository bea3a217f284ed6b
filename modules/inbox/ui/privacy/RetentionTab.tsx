import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Alert, Button, Card, Empty, Flex, InputNumber, List, Select, Skeleton, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useGetPrivacyLogQuery, useGetPrivacyRetentionQuery, useSetPrivacyRetentionMutation } from './api';

/** The retention choices offered, in months; the API takes any whole number from 1 to 120. */
const PRESETS = [3, 6, 12, 24, 60];

/**
 * The Settings page's LGPD tab: how long messages and media are kept (removed by an hourly job past it)
 * and the log of exports, erasures and retention runs.
 */
export default function RetentionTab() {
  const { t, i18n } = useTranslation('inbox');
  const { data, isLoading, isError, isFetching, refetch } = useGetPrivacyRetentionQuery();
  const log = useGetPrivacyLogQuery();
  const [save, { isLoading: saving }] = useSetPrivacyRetentionMutation();
  const [mode, setMode] = useState<'forever' | 'months'>('forever');
  const [months, setMonths] = useState<number>(12);

  useEffect(() => {
    if (!data) return;
    setMode(data.months === null ? 'forever' : 'months');
    if (data.months !== null) setMonths(data.months);
  }, [data]);

  const submit = async () => {
    // only a setting actually read may be overwritten: the form's defaults are not the company's choice
    if (!data) return;
    try {
      await save({ months: mode === 'forever' ? null : months }).unwrap();
      toast.success(t('privacy.retention.saved'));
    } catch (error) {
      showError(error);
    }
  };

  if (isLoading) return <Skeleton active paragraph={{ rows: 4 }} />;
  const failure = (message: string, retry: () => unknown, retrying: boolean) => (
    <Alert
      type="error"
      showIcon
      title={message}
      action={
        <Button size="small" loading={retrying} onClick={() => retry()}>
          {t('privacy.retry')}
        </Button>
      }
    />
  );
  return (
    <Flex vertical gap={16} style={{ maxWidth: 640 }}>
      <Card title={t('privacy.retention.title')} size="small">
        <Flex vertical gap={12}>
          {isError && !data ? failure(t('privacy.retention.loadError'), refetch, isFetching) : null}
          <Typography.Text type="secondary">{t('privacy.retention.help')}</Typography.Text>
          <Flex gap={8} wrap align="center">
            <Select
              aria-label={t('privacy.retention.title')}
              style={{ minWidth: 200 }}
              value={mode}
              onChange={setMode}
              options={[
                { value: 'forever', label: t('privacy.retention.forever') },
                { value: 'months', label: t('privacy.retention.limited') },
              ]}
            />
            {mode === 'months' ? (
              <InputNumber
                aria-label={t('privacy.retention.months')}
                min={1}
                max={120}
                precision={0}
                value={months}
                onChange={(value) => setMonths(value ?? 1)}
                addonAfter={t('privacy.retention.months')}
              />
            ) : null}
            <Button type="primary" loading={saving} disabled={!data} onClick={submit}>
              {t('privacy.retention.save')}
            </Button>
          </Flex>
          {mode === 'months' ? (
            <Flex gap={4} wrap>
              {PRESETS.map((preset) => (
                <Tag.CheckableTag key={preset} checked={months === preset} onChange={() => setMonths(preset)}>
                  {t('privacy.retention.preset', { count: preset })}
                </Tag.CheckableTag>
              ))}
            </Flex>
          ) : null}
        </Flex>
      </Card>
      <Card title={t('privacy.log.title')} size="small">
        {log.isLoading ? (
          <Skeleton active paragraph={{ rows: 3 }} />
        ) : log.isError && !log.data ? (
          failure(t('privacy.log.loadError'), log.refetch, log.isFetching)
        ) : (log.data?.entries.length ?? 0) === 0 ? (
          <Empty description={t('privacy.log.empty')} />
        ) : (
          <List
            size="small"
            dataSource={log.data?.entries ?? []}
            renderItem={(entry) => (
              <List.Item>
                <Flex vertical gap={2}>
                  <Typography.Text>
                    {t(`privacy.log.${entry.action}`, {
                      contact: entry.contactId ?? '',
                      messages: Number(entry.details.messages ?? 0),
                      files: Number(entry.details.files ?? 0),
                    })}
                  </Typography.Text>
                  <Typography.Text type="secondary">
                    {new Date(entry.createdAt).toLocaleString(i18n.language)}
                    {entry.user ? ` · ${entry.user.name}` : ` · ${t('privacy.log.system')}`}
                  </Typography.Text>
                </Flex>
              </List.Item>
            )}
          />
        )}
      </Card>
    </Flex>
  );
}
