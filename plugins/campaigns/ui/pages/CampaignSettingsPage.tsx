import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Col, Form, Input, Row, Select, Skeleton, Space, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import {
  type CampaignSettings,
  DEFAULT_SETTINGS,
  GREATER_INTERVAL_OPTIONS,
  HOUR_PATTERN,
  LONGER_INTERVAL_AFTER_OPTIONS,
  MESSAGE_INTERVAL_OPTIONS,
  SETTING_KEYS,
} from '../../shared/campaigns';
import { useCampaignSettingsQuery, useSaveCampaignSettingsMutation } from '../api';
import { CampaignsGuard, PageHeader } from '../components/common';

/** The settings as the form holds them (stop words as one line of text). */
type FormValues = Omit<CampaignSettings, 'stopWords'> & { stopWords: string };

/** The stored `[{ key, value }]` as typed settings (defaults for anything missing or unreadable). */
export function parseSettings(rows: Array<{ key: string; value: string }>): CampaignSettings {
  const settings: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const { key, value } of rows) {
    if (!(SETTING_KEYS as string[]).includes(key)) continue;
    const fallback = DEFAULT_SETTINGS[key as keyof CampaignSettings];
    try {
      settings[key] =
        typeof fallback === 'number'
          ? Number(value)
          : typeof fallback === 'boolean'
            ? value === 'true' || value === 'enabled'
            : Array.isArray(fallback)
              ? JSON.parse(value)
              : value;
    } catch {
      settings[key] = fallback;
    }
  }
  return settings as unknown as CampaignSettings;
}

/** Campaign settings (/campaigns-config, docs/product/automation.md#screens-and-routes): pacing, hours, weekends, variables. */
export function CampaignSettingsPage() {
  return (
    <CampaignsGuard>
      <SettingsForm />
    </CampaignsGuard>
  );
}

function SettingsForm() {
  const { t } = useTranslation('campaigns');
  const [form] = Form.useForm<FormValues>();
  const { data, isLoading, error } = useCampaignSettingsQuery();
  const [save, saving] = useSaveCampaignSettingsMutation();

  useEffect(() => {
    if (error) showError(error);
  }, [error]);
  useEffect(() => {
    if (!data) return;
    const settings = parseSettings(data);
    form.setFieldsValue({ ...settings, stopWords: settings.stopWords.join(', ') });
  }, [data, form]);

  const submit = async (values: FormValues) => {
    try {
      await save({
        ...values,
        variables: (values.variables ?? []).filter((variable) => variable?.key),
        stopWords: values.stopWords
          .split(',')
          .map((word) => word.trim())
          .filter(Boolean),
      }).unwrap();
      toast.success(t('settings.saved'));
    } catch (failure) {
      showError(failure);
    }
  };

  const seconds = (value: number) => (value === 0 ? t('settings.none') : t('settings.seconds', { count: value }));
  if (isLoading) return <Skeleton active paragraph={{ rows: 10 }} />;
  return (
    <Card>
      <PageHeader title={t('settings.title')} />
      <Form<FormValues> form={form} layout="vertical" onFinish={submit}>
        <Row gutter={12}>
          <Col xs={24} md={8}>
            <Form.Item name="messageInterval" label={t('settings.messageInterval')} extra={t('settings.messageIntervalHint')}>
              <Select options={MESSAGE_INTERVAL_OPTIONS.map((value) => ({ value, label: seconds(value) }))} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="longerIntervalAfter" label={t('settings.longerIntervalAfter')}>
              <Select
                options={LONGER_INTERVAL_AFTER_OPTIONS.map((value) => ({
                  value,
                  label: value === 0 ? t('settings.none') : t('settings.messages', { count: value }),
                }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="greaterInterval" label={t('settings.greaterInterval')}>
              <Select options={GREATER_INTERVAL_OPTIONS.map((value) => ({ value, label: seconds(value) }))} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item
              name="startHour"
              label={t('settings.startHour')}
              rules={[{ pattern: new RegExp(HOUR_PATTERN), message: t('validation.hour') }]}
            >
              <Input type="time" />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item
              name="endHour"
              label={t('settings.endHour')}
              rules={[{ pattern: new RegExp(HOUR_PATTERN), message: t('validation.hour') }]}
            >
              <Input type="time" />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="sabado" label={t('settings.sabado')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="domingo" label={t('settings.domingo')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="timeZone" label={t('settings.timeZone')} extra={t('settings.timeZoneHint')}>
              <Select showSearch options={Intl.supportedValuesOf('timeZone').map((zone) => ({ value: zone, label: zone }))} />
            </Form.Item>
          </Col>
          <Col xs={24} md={4}>
            <Form.Item
              name="countryCode"
              label={t('settings.countryCode')}
              rules={[{ pattern: /^[1-9][0-9]{0,3}$/, message: t('validation.countryCode') }]}
            >
              <Input inputMode="numeric" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="stopWords" label={t('settings.stopWords')} extra={t('settings.stopWordsHint')}>
              <Input />
            </Form.Item>
          </Col>
        </Row>
        <Typography.Title level={5}>{t('settings.variables')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('settings.variablesHint')}</Typography.Paragraph>
        <Form.List name="variables">
          {(fields, { add, remove }) => (
            <Space direction="vertical" style={{ width: '100%' }}>
              {fields.map((field) => (
                <Space key={field.key} wrap align="baseline">
                  <Form.Item
                    name={[field.name, 'key']}
                    rules={[
                      { required: true, message: t('validation.required') },
                      { pattern: /^[A-Za-z0-9_]+$/, message: t('validation.variableKey') },
                    ]}
                  >
                    <Input placeholder={t('settings.variableKey')} maxLength={40} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'value']}>
                    <Input placeholder={t('settings.variableValue')} maxLength={1000} />
                  </Form.Item>
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    onClick={() => remove(field.name)}
                    aria-label={t('settings.removeVariable')}
                  />
                </Space>
              ))}
              <Button icon={<PlusOutlined />} onClick={() => add({ key: '', value: '' })}>
                {t('settings.addVariable')}
              </Button>
            </Space>
          )}
        </Form.List>
        <div style={{ marginTop: 16 }}>
          <Button type="primary" htmlType="submit" loading={saving.isLoading}>
            {t('settings.save')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}
