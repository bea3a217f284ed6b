import { LoadingOutlined } from '@ant-design/icons';
import { showError, toast, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import { Alert, Divider, Flex, Input, Select, Skeleton, Switch, Typography } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import {
  CHATBOT_TYPES,
  DOWNLOAD_LIMITS,
  missingRequiredMessage,
  REQUIRED_MESSAGES,
  SCHEDULE_TYPES,
} from '../../server/team/setting-keys';
import { WAITING_TEXTS } from '../../shared/chatbot-texts';
import { useListCompanySettingsQuery, useUpdateCompanySettingMutation } from './api';

type Control = 'toggle' | 'text' | 'link' | { choices: readonly string[]; labels?: string };

/** The Options tab's sections: each key of docs/product/administration.md#entities Setting with its control. */
const SECTIONS: Array<{ key: string; superOnly?: boolean; rows: Array<[string, Control]> }> = [
  {
    key: 'platform',
    superOnly: true,
    rows: [
      ['userCreation', 'toggle'],
      ['downloadLimit', { choices: DOWNLOAD_LIMITS }],
    ],
  },
  {
    key: 'attendance',
    rows: [
      ['userRating', 'toggle'],
      ['scheduleType', { choices: SCHEDULE_TYPES, labels: 'scheduleType' }],
      ['chatBotType', { choices: CHATBOT_TYPES, labels: 'chatBotType' }],
      ['userRandom', 'toggle'],
      ['sendGreetingMessageOneQueues', 'toggle'],
      ['sendSignMessage', 'toggle'],
      ['sendFarewellWaitingTicket', 'toggle'],
      ['acceptAudioMessageContact', 'toggle'],
      ['requiredTag', 'toggle'],
      ['DirectTicketsToWallets', 'toggle'],
      ['closeTicketOnTransfer', 'toggle'],
      ['showNotificationPending', 'toggle'],
    ],
  },
  {
    key: 'messages',
    rows: [
      ['sendGreetingAccepted', 'toggle'],
      ['greetingAcceptedMessage', 'text'],
      ['sendMsgTransfTicket', 'toggle'],
      ['transferMessage', 'text'],
      ['sendQueuePosition', 'toggle'],
      ['sendQueuePositionMessage', 'text'],
      ['chatbotWaitingMessage', 'text'],
    ],
  },
  {
    key: 'calls',
    rows: [
      ['acceptCallWhatsapp', 'toggle'],
      ['AcceptCallWhatsappMessage', 'text'],
    ],
  },
  {
    key: 'lgpd',
    rows: [
      ['enableLGPD', 'toggle'],
      ['lgpdMessage', 'text'],
      ['lgpdLink', 'link'],
      ['lgpdDeleteMessage', 'toggle'],
      ['lgpdHideNumber', 'toggle'],
      ['lgpdConsent', 'toggle'],
    ],
  },
];

/**
 * The Settings page's Options tab (docs/product/administration.md#settings): every key, each change saved at once
 * with an updating indicator and 'Operação atualizada com sucesso'; messages save when the field is
 * left. A message that docs/product/administration.md#validation requires while its switch is on can't be emptied, and the switch can't be
 * turned on before the message is written.
 */
export function OptionsTab() {
  const { t, i18n } = useTranslation('admin');
  const session = useSession();
  const { data: settings, isLoading, error } = useListCompanySettingsQuery();
  const [updateSetting] = useUpdateCompanySettingMutation();
  const [saving, setSaving] = useState<ReadonlySet<string>>(new Set());
  const [flagged, setFlagged] = useState<string | null>(null);

  useEffect(() => {
    if (error) showError(error);
  }, [error]);

  if (isLoading) return <Skeleton active paragraph={{ rows: 12 }} />;
  if (!settings) return error ? <Alert type="error" showIcon title={t('settings.title')} /> : null;

  const save = async (key: string, value: string) => {
    if (settings[key] === value) return;
    const missing = missingRequiredMessage(settings, key, value);
    if (missing) {
      setFlagged(missing);
      toast.warning(t('settings.writeMessageFirst'));
      return;
    }
    setFlagged(null);
    setSaving((current) => new Set(current).add(key));
    try {
      await updateSetting({ key, value }).unwrap();
      toast.success(t('settings.saved'));
    } catch (failure) {
      showError(failure);
    } finally {
      setSaving((current) => {
        const next = new Set(current);
        next.delete(key);
        return next;
      });
    }
  };

  const requiredHint = (key: string): string | null => {
    const rule = REQUIRED_MESSAGES.find((candidate) => candidate.message === key);
    if (!rule || settings[rule.toggle] !== rule.when) return null;
    return rule.when === 'disabled'
      ? t('settings.callMessageRequired')
      : t('settings.messageRequired', { toggle: t(`settings.keys.${rule.toggle}`) });
  };

  /** What goes while a message with a product default is empty (the contact reads Portuguese, the product's). */
  const defaultHint = (key: string, value: string): string | null => {
    if (key !== 'chatbotWaitingMessage' || value.trim() !== '') return null;
    const language = i18n.language as keyof typeof WAITING_TEXTS;
    const own = language !== 'pt' && WAITING_TEXTS[language] ? WAITING_TEXTS[language] : null;
    return [
      t('settings.hints.emptySends', { text: WAITING_TEXTS.pt }),
      own ? t('settings.hints.inYourLanguage', { text: own }) : '',
    ]
      .join(' ')
      .trim();
  };

  const control = (key: string, kind: Control): ReactNode => {
    const value = settings[key] ?? '';
    const busy = saving.has(key);
    if (kind === 'toggle') {
      return (
        <Switch
          aria-label={t(`settings.keys.${key}`)}
          checked={value === 'enabled'}
          loading={busy}
          checkedChildren={t('settings.enabled')}
          unCheckedChildren={t('settings.disabled')}
          onChange={(checked) => void save(key, checked ? 'enabled' : 'disabled')}
        />
      );
    }
    if (typeof kind === 'object') {
      return (
        <Select
          aria-label={t(`settings.keys.${key}`)}
          value={value}
          loading={busy}
          disabled={busy}
          style={{ minWidth: 180 }}
          options={kind.choices.map((choice) => ({
            value: choice,
            label: kind.labels ? t(`settings.choices.${kind.labels}.${choice}`) : choice,
          }))}
          onChange={(choice: string) => void save(key, choice)}
        />
      );
    }
    const hint = requiredHint(key) ?? defaultHint(key, value);
    const problem = flagged === key || (hint !== null && value.trim() === '') ? (hint ?? t('settings.writeMessageFirst')) : null;
    return (
      <MessageField
        key={`${key}:${value}`}
        label={t(`settings.keys.${key}`)}
        stored={value}
        single={kind === 'link'}
        busy={busy}
        problem={problem}
        hint={hint}
        onSave={(text) => void save(key, text.trim())}
      />
    );
  };

  return (
    <Flex vertical gap={4}>
      {SECTIONS.filter((section) => !section.superOnly || session?.super).map((section) => (
        <section key={section.key}>
          <Divider titlePlacement="start" style={{ marginTop: 8 }}>
            {t(`settings.groups.${section.key}`)}
          </Divider>
          <Flex vertical gap={12}>
            {section.rows.map(([key, kind]) => (
              <Flex key={key} wrap gap={8} align={kind === 'text' ? 'start' : 'center'} justify="space-between">
                <Flex align="center" gap={8} style={{ flex: '1 1 260px', minWidth: 0 }}>
                  <Typography.Text>{t(`settings.keys.${key}`)}</Typography.Text>
                  {saving.has(key) ? (
                    <Typography.Text type="secondary" role="status">
                      <LoadingOutlined /> {t('settings.updating')}
                    </Typography.Text>
                  ) : null}
                </Flex>
                <div style={{ flex: kind === 'text' || kind === 'link' ? '2 1 320px' : '0 0 auto' }}>{control(key, kind)}</div>
                {key === 'userRating' ? (
                  // what else a rating needs, and the defaults that apply without it
                  <Typography.Text type="secondary" style={{ flexBasis: '100%', fontSize: 12 }} data-testid="userRating-hint">
                    {t('settings.hints.userRating')}
                  </Typography.Text>
                ) : null}
              </Flex>
            ))}
          </Flex>
        </section>
      ))}
    </Flex>
  );
}

interface MessageFieldProps {
  label: string;
  stored: string;
  single: boolean;
  busy: boolean;
  problem: string | null;
  hint: string | null;
  onSave(text: string): void;
}

/** A message setting: edited freely, saved when the field is left (when it changed). */
function MessageField({ label, stored, single, busy, problem, hint, onSave }: MessageFieldProps) {
  const { t } = useTranslation('admin');
  const [text, setText] = useState(stored);
  const commit = () => {
    if (text.trim() !== stored) onSave(text);
  };
  const common = {
    'aria-label': label,
    value: text,
    disabled: busy,
    status: problem ? ('error' as const) : undefined,
    onChange: (event: { target: { value: string } }) => setText(event.target.value),
    onBlur: commit,
  };
  return (
    <Flex vertical gap={2}>
      {single ? (
        <Input {...common} type="url" placeholder="https://" />
      ) : (
        <Input.TextArea {...common} autoSize={{ minRows: 2, maxRows: 6 }} maxLength={5000} />
      )}
      <Typography.Text type={problem ? 'danger' : 'secondary'} style={{ fontSize: 12 }}>
        {problem ?? hint ?? t('settings.hints.saveOnBlur')}
      </Typography.Text>
    </Flex>
  );
}
