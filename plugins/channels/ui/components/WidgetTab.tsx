import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Alert, Button, ColorPicker, Flex, Form, Input, InputNumber, Popconfirm, Select, Typography } from 'antd';
import type { WebchatPrechatMode } from '../../shared/webchat';
import { embedSnippet } from '../editor-rules';
import type { WebchatChannelConfig } from '../types';

/** Props of the widget tab. */
export interface WidgetTabProps {
  value: WebchatChannelConfig;
  onChange(next: WebchatChannelConfig): void;
  /** The connection exists: its key and secret are known and may be regenerated. */
  saved: boolean;
  problem: string | null;
  onRegenerate(name: 'widgetKey' | 'identitySecret'): void;
  regenerating: boolean;
}

const PRECHAT_FIELDS = ['name', 'email', 'phone'] as const;
const PRECHAT_MODES: WebchatPrechatMode[] = ['off', 'optional', 'required'];

/**
 * A webchat connection's widget (docs/channels/widget.md): who may embed it, the pre-chat form, its look, the abuse limits,
 * the embed snippet, and the identity secret with which a site signs its users in.
 */
export function WidgetTab({ value, onChange, saved, problem, onRegenerate, regenerating }: WidgetTabProps) {
  const { t } = useTranslation('channels');
  const set = (patch: Partial<WebchatChannelConfig>) => onChange({ ...value, ...patch });
  const origin = globalThis.location?.origin ?? '';
  const snippet = saved && value.widgetKey ? embedSnippet(origin, value.widgetKey) : null;

  const regenerateButton = (name: 'widgetKey' | 'identitySecret') => (
    <Popconfirm
      title={t('confirm.regenerateTitle')}
      description={t(name === 'widgetKey' ? 'confirm.regenerateWidgetKey' : 'confirm.regenerateSecret')}
      okText={t('confirm.yes')}
      cancelText={t('confirm.no')}
      onConfirm={() => onRegenerate(name)}
    >
      <Button
        size="small"
        icon={<ReloadOutlined />}
        loading={regenerating}
        aria-label={`${t('form.regenerate')} — ${t(`widget.${name}`)}`}
      >
        {t('form.regenerate')}
      </Button>
    </Popconfirm>
  );

  return (
    <>
      {problem ? <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} /> : null}
      <Form.Item label={t('widget.embed')} tooltip={t('widget.embedHelp')}>
        {snippet ? (
          <Flex vertical gap={8}>
            <Typography.Paragraph
              code
              copyable={{ text: snippet, tooltips: [t('form.copy'), t('form.copied')] }}
              style={{ wordBreak: 'break-all', marginBottom: 0 }}
              data-testid="widget-snippet"
            >
              {snippet}
            </Typography.Paragraph>
            <Flex gap={8} align="center" wrap>
              <Typography.Text type="secondary">{t('widget.widgetKey')}:</Typography.Text>
              <Typography.Text code>{value.widgetKey}</Typography.Text>
              {regenerateButton('widgetKey')}
            </Flex>
          </Flex>
        ) : (
          <Typography.Text type="secondary">{t('widget.afterSave')}</Typography.Text>
        )}
      </Form.Item>
      <Form.Item label={t('widget.allowedOrigins')} tooltip={t('widget.allowedOriginsHelp')}>
        <Select
          mode="tags"
          aria-label={t('widget.allowedOrigins')}
          value={value.allowedOrigins}
          onChange={(allowedOrigins: string[]) =>
            set({ allowedOrigins: allowedOrigins.map((entry) => entry.trim()).filter(Boolean) })
          }
          tokenSeparators={[' ', ',']}
          placeholder="https://shop.example"
          open={false}
        />
      </Form.Item>
      <Flex gap={12} wrap>
        {PRECHAT_FIELDS.map((field) => (
          <Form.Item key={field} label={t(`widget.prechat.${field}`)} style={{ flex: '1 1 160px' }}>
            <Select
              aria-label={t(`widget.prechat.${field}`)}
              value={value.prechat[field]}
              onChange={(mode: WebchatPrechatMode) => set({ prechat: { ...value.prechat, [field]: mode } })}
              options={PRECHAT_MODES.map((mode) => ({ value: mode, label: t(`widget.prechatModes.${mode}`) }))}
            />
          </Form.Item>
        ))}
      </Flex>
      <Flex gap={12} wrap>
        <Form.Item label={t('widget.color')} style={{ flex: '0 0 auto' }}>
          <ColorPicker
            format="hex"
            showText
            disabledAlpha
            value={value.color}
            onChangeComplete={(color) => set({ color: color.toHexString().toUpperCase() })}
          />
        </Form.Item>
        <Form.Item label={t('widget.theme')} style={{ flex: '1 1 140px' }}>
          <Select
            aria-label={t('widget.theme')}
            value={value.theme}
            onChange={(theme) => set({ theme })}
            options={(['light', 'dark', 'auto'] as const).map((theme) => ({ value: theme, label: t(`widget.themes.${theme}`) }))}
          />
        </Form.Item>
        <Form.Item label={t('widget.position')} style={{ flex: '1 1 140px' }}>
          <Select
            aria-label={t('widget.position')}
            value={value.position}
            onChange={(position) => set({ position })}
            options={(['right', 'left'] as const).map((position) => ({
              value: position,
              label: t(`widget.positions.${position}`),
            }))}
          />
        </Form.Item>
      </Flex>
      <Form.Item label={t('widget.title')} htmlFor="widget-title">
        <Input id="widget-title" maxLength={80} value={value.title} onChange={(event) => set({ title: event.target.value })} />
      </Form.Item>
      <Form.Item label={t('widget.welcomeMessage')} htmlFor="widget-welcome">
        <Input.TextArea
          id="widget-welcome"
          maxLength={1_000}
          autoSize={{ minRows: 2, maxRows: 4 }}
          value={value.welcomeMessage}
          onChange={(event) => set({ welcomeMessage: event.target.value })}
        />
      </Form.Item>
      <Flex gap={12} wrap>
        <Form.Item label={t('widget.newConversationsPerIpPerHour')} htmlFor="widget-per-ip" style={{ flex: '1 1 220px' }}>
          <InputNumber
            id="widget-per-ip"
            min={1}
            max={100_000}
            precision={0}
            value={value.newConversationsPerIpPerHour}
            onChange={(count) => set({ newConversationsPerIpPerHour: count ?? 0 })}
            style={{ width: '100%' }}
          />
        </Form.Item>
        <Form.Item label={t('widget.messagesPerMinute')} htmlFor="widget-per-minute" style={{ flex: '1 1 220px' }}>
          <InputNumber
            id="widget-per-minute"
            min={1}
            max={10_000}
            precision={0}
            value={value.messagesPerMinute}
            onChange={(count) => set({ messagesPerMinute: count ?? 0 })}
            style={{ width: '100%' }}
          />
        </Form.Item>
      </Flex>
      <Form.Item label={t('widget.identitySecret')}>
        {saved && value.identitySecret ? (
          <Flex gap={8} align="center" wrap>
            <Typography.Text
              code
              copyable={{ text: value.identitySecret, tooltips: [t('form.copy'), t('form.copied')] }}
              data-testid="widget-secret"
            >
              {value.identitySecret}
            </Typography.Text>
            {regenerateButton('identitySecret')}
          </Flex>
        ) : (
          <Typography.Text type="secondary">{t('widget.afterSave')}</Typography.Text>
        )}
      </Form.Item>
      <Alert
        type="info"
        showIcon
        title={t('widget.identifiedTitle')}
        description={
          <>
            <Typography.Paragraph style={{ marginBottom: 4 }}>{t('widget.identifiedText')}</Typography.Paragraph>
            <Typography.Text code>{'BalcaoChat.setUser(token)'}</Typography.Text>
          </>
        }
      />
    </>
  );
}
