import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Col, ColorPicker, Empty, Flex, Form, Input, Row, Skeleton, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import {
  type LogoMode,
  logoUrl,
  useGetWhitelabelQuery,
  useSetWhitelabelMutation,
  useUploadLogoMutation,
  type WhitelabelKey,
} from '../api';

/** docs/product/administration.md#constants-and-limits: the theme colours a blank setting stands for. */
const DEFAULT_COLORS = { primaryColorLight: '#0000FF', primaryColorDark: '#39ACE7' } as const;
const HEX = /^#[0-9A-Fa-f]{6}$/;
const LOGO_ACCEPT =
  '.png,.jpg,.jpeg,.webp,.gif,.ico,image/png,image/jpeg,image/webp,image/gif,image/x-icon,image/vnd.microsoft.icon';
const LOGO_SETTING: Record<LogoMode, WhitelabelKey> = { Light: 'appLogoLight', Dark: 'appLogoDark', Favicon: 'appLogoFavicon' };

/**
 * Whitelabel (docs/product/administration.md#settings, super only): the primary colours, the app name and the
 * logos. Every change saves at once (an updating indicator, 'Operação atualizada com sucesso') and
 * applies to the shell without a reload.
 */
export function WhitelabelTab() {
  const { t } = useTranslation('admin');
  const { data, isLoading, isError } = useGetWhitelabelQuery();
  const [save, saving] = useSetWhitelabelMutation();

  const set = async (key: WhitelabelKey, value: string) => {
    try {
      await save({ key, value }).unwrap();
      toast.success(t('platform.whitelabel.saved'));
    } catch (error) {
      showError(error);
    }
  };

  if (isLoading) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (isError || !data) return <Empty description={t('platform.common.loadError')} />;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card
        size="small"
        title={t('platform.whitelabel.colors')}
        extra={saving.isLoading ? t('platform.whitelabel.saving') : null}
      >
        <Row gutter={[16, 8]}>
          {(['primaryColorLight', 'primaryColorDark'] as const).map((key) => (
            <Col xs={24} md={12} key={key}>
              <ColorSetting
                label={t(`platform.whitelabel.${key}`)}
                value={data[key] || DEFAULT_COLORS[key]}
                onSave={(value) => set(key, value)}
              />
            </Col>
          ))}
          <Col xs={24} md={12}>
            <AppNameSetting value={data.appName} onSave={(value) => set('appName', value)} />
          </Col>
        </Row>
      </Card>
      <Card
        size="small"
        title={t('platform.whitelabel.logos')}
        extra={<Typography.Text type="secondary">{t('platform.whitelabel.logoTypes')}</Typography.Text>}
      >
        <Row gutter={[16, 16]}>
          {(Object.keys(LOGO_SETTING) as LogoMode[]).map((mode) => (
            <Col xs={24} md={8} key={mode}>
              <LogoSetting mode={mode} name={data[LOGO_SETTING[mode]]} onRemove={() => set(LOGO_SETTING[mode], '')} />
            </Col>
          ))}
        </Row>
      </Card>
    </Space>
  );
}

function ColorSetting({ label, value, onSave }: { label: string; value: string; onSave(value: string): void }) {
  const { t } = useTranslation('admin');
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const commit = (next: string) => {
    const color = next.trim().toUpperCase();
    if (!HEX.test(color)) {
      toast.error(t('platform.whitelabel.invalidColor'));
      setText(value);
      return;
    }
    if (color !== value.toUpperCase()) onSave(color);
  };
  return (
    <Form.Item label={label} style={{ marginBottom: 0 }}>
      <Flex gap={8}>
        <ColorPicker value={text} disabledAlpha onChangeComplete={(color) => commit(color.toHexString())} />
        <Input
          value={text}
          aria-label={label}
          maxLength={7}
          onChange={(event) => setText(event.target.value)}
          onBlur={() => commit(text)}
          onPressEnter={() => commit(text)}
          style={{ maxWidth: 140 }}
        />
      </Flex>
    </Form.Item>
  );
}

function AppNameSetting({ value, onSave }: { value: string; onSave(value: string): void }) {
  const { t } = useTranslation('admin');
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const commit = () => {
    if (text.trim() !== value) onSave(text.trim());
  };
  return (
    <Form.Item label={t('platform.whitelabel.appName')} style={{ marginBottom: 0 }}>
      <Input
        value={text}
        maxLength={50}
        aria-label={t('platform.whitelabel.appName')}
        placeholder={t('platform.whitelabel.appNamePlaceholder')}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onPressEnter={commit}
      />
    </Form.Item>
  );
}

function LogoSetting({ mode, name, onRemove }: { mode: LogoMode; name: string; onRemove(): void }) {
  const { t } = useTranslation('admin');
  const [upload, uploading] = useUploadLogoMutation();
  const picker = useRef<HTMLInputElement>(null);
  const label = t(`platform.whitelabel.${LOGO_SETTING[mode]}`);

  const send = async (file: File | undefined) => {
    if (!file) return;
    try {
      await upload({ mode, file }).unwrap();
      toast.success(t('platform.whitelabel.saved'));
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Flex vertical gap={8}>
      <Typography.Text strong>{label}</Typography.Text>
      <div
        style={{
          height: 72,
          display: 'grid',
          placeItems: 'center',
          border: '1px dashed rgba(128,128,128,0.4)',
          borderRadius: 8,
          background: mode === 'Dark' ? '#141414' : undefined,
        }}
      >
        {name ? (
          <img src={logoUrl(name)} alt={label} style={{ maxHeight: 60, maxWidth: '90%' }} />
        ) : (
          <Typography.Text type="secondary">{t('platform.whitelabel.noLogo')}</Typography.Text>
        )}
      </div>
      <input
        ref={picker}
        type="file"
        hidden
        accept={LOGO_ACCEPT}
        data-testid={`logo-${mode}`}
        onChange={(event) => {
          void send(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      <Space>
        <Button icon={<UploadOutlined />} loading={uploading.isLoading} onClick={() => picker.current?.click()}>
          {t('platform.whitelabel.upload')}
        </Button>
        {name ? (
          <Button danger icon={<DeleteOutlined />} onClick={onRemove}>
            {t('platform.whitelabel.remove')}
          </Button>
        ) : null}
      </Space>
    </Flex>
  );
}
