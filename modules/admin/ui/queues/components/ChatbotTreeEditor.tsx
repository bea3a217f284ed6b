import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Checkbox, Empty, Input, InputNumber, Select, Space, Tooltip, Typography } from 'antd';
import type { OptionDraft } from '../api';
import { addOption, canNest, optionProblems, QUEUE_TYPES, removeOption, updateOption } from '../option-tree';

interface Choice {
  id: number;
  name: string;
}

export interface ChatbotTreeEditorProps {
  value: OptionDraft[];
  onChange(next: OptionDraft[]): void;
  /** Queues a queue option may send the ticket to. */
  queues: Choice[];
  /** Users an attendent option may hand the ticket to. */
  users: Choice[];
  /**
   * The company's queue integrations an integration option may hand the ticket to (the flow builder's, with
   * useIntegrations); null while unknown: the option takes an id.
   */
  integrations?: Choice[] | null;
}

/**
 * The queue dialog's chatbot option tree (docs/product/administration.md#queues, #entities Chatbot option): each option
 * with its name, type and target, its message, whether it closes the ticket, and its nested options —
 * added only once the option has a message (docs/product/administration.md#states-and-transitions).
 */
export function ChatbotTreeEditor({ value, onChange, queues, users, integrations = null }: ChatbotTreeEditorProps) {
  const { t } = useTranslation('admin');
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={8}>
      {value.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('queues.option.empty')} /> : null}
      <OptionList
        drafts={value}
        path={[]}
        root={value}
        onChange={onChange}
        queues={queues}
        users={users}
        integrations={integrations}
      />
      <Button icon={<PlusOutlined />} onClick={() => onChange(addOption(value, []))}>
        {t('queues.option.add')}
      </Button>
    </Space>
  );
}

interface ListProps {
  drafts: OptionDraft[];
  path: number[];
  root: OptionDraft[];
  onChange(next: OptionDraft[]): void;
  queues: Choice[];
  users: Choice[];
  integrations: Choice[] | null;
}

function OptionList({ drafts, path, ...rest }: ListProps) {
  return (
    <>
      {drafts.map((draft, index) => (
        <OptionCard key={draft.key} draft={draft} path={[...path, index]} number={index + 1} {...rest} />
      ))}
    </>
  );
}

function OptionCard({
  draft,
  path,
  number,
  root,
  onChange,
  queues,
  users,
  integrations,
}: Omit<ListProps, 'drafts'> & { draft: OptionDraft; number: number }) {
  const { t } = useTranslation('admin');
  const set = (patch: Partial<OptionDraft>) => onChange(updateOption(root, path, patch));
  const problems = optionProblems(draft);
  const label = `${t('queues.option.title')} ${path.map((index) => index + 1).join('.')}`;
  const nestable = canNest(draft);
  return (
    <Card
      size="small"
      data-testid={`chatbot-option-${path.join('-')}`}
      title={
        <Space size={6}>
          <Typography.Text type="secondary">{`[ ${number} ]`}</Typography.Text>
          <Input
            aria-label={`${label} — ${t('queues.option.name')}`}
            placeholder={t('queues.option.name')}
            value={draft.name}
            maxLength={100}
            status={draft.name.trim().length < 4 ? 'error' : undefined}
            onChange={(event) => set({ name: event.target.value })}
            style={{ maxWidth: 260 }}
          />
        </Space>
      }
      extra={
        <Tooltip title={t('queues.option.remove')}>
          <Button
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label={`${label} — ${t('queues.option.remove')}`}
            onClick={() => onChange(removeOption(root, path))}
          />
        </Tooltip>
      }
      style={{ marginInlineStart: (path.length - 1) * 16 }}
    >
      <Space orientation="vertical" style={{ width: '100%' }} size={8}>
        <Space wrap>
          <Select
            aria-label={`${label} — ${t('queues.option.type')}`}
            value={draft.queueType}
            style={{ minWidth: 160 }}
            options={QUEUE_TYPES.map((type) => ({ value: type, label: t(`queues.option.types.${type}`) }))}
            onChange={(queueType) => set({ queueType, ...(queueType === 'text' ? {} : { options: [] }) })}
          />
          {draft.queueType === 'queue' ? (
            <Select
              aria-label={`${label} — ${t('queues.option.targetQueue')}`}
              placeholder={t('queues.option.targetQueue')}
              value={draft.optQueueId ?? undefined}
              style={{ minWidth: 180 }}
              options={queues.map((queue) => ({ value: queue.id, label: queue.name }))}
              onChange={(optQueueId) => set({ optQueueId })}
            />
          ) : null}
          {draft.queueType === 'attendent' ? (
            <Select
              aria-label={`${label} — ${t('queues.option.targetUser')}`}
              placeholder={t('queues.option.targetUser')}
              value={draft.optUserId ?? undefined}
              style={{ minWidth: 180 }}
              showSearch
              optionFilterProp="label"
              options={users.map((user) => ({ value: user.id, label: user.name }))}
              onChange={(optUserId) => set({ optUserId })}
            />
          ) : null}
          {draft.queueType === 'integration' && integrations ? (
            <Select
              aria-label={`${label} — ${t('queues.option.integration')}`}
              placeholder={t('queues.option.integration')}
              value={draft.optIntegrationId ?? undefined}
              style={{ minWidth: 180 }}
              showSearch
              optionFilterProp="label"
              options={integrations.map((integration) => ({ value: integration.id, label: integration.name }))}
              onChange={(optIntegrationId) => set({ optIntegrationId })}
            />
          ) : null}
          {draft.queueType === 'integration' && !integrations ? (
            <InputNumber
              aria-label={`${label} — ${t('queues.option.integrationId')}`}
              placeholder={t('queues.option.integrationId')}
              min={1}
              precision={0}
              value={draft.optIntegrationId}
              onChange={(optIntegrationId) => set({ optIntegrationId: optIntegrationId ?? null })}
            />
          ) : null}
          {draft.queueType === 'file' ? (
            <InputNumber
              aria-label={`${label} — ${t('queues.option.fileId')}`}
              placeholder={t('queues.option.fileId')}
              min={1}
              precision={0}
              value={draft.optFileId}
              onChange={(optFileId) => set({ optFileId: optFileId ?? null })}
            />
          ) : null}
          <Checkbox checked={draft.closeTicket} onChange={(event) => set({ closeTicket: event.target.checked })}>
            {t('queues.option.closeTicket')}
          </Checkbox>
        </Space>
        <Input.TextArea
          aria-label={`${label} — ${t('queues.option.message')}`}
          placeholder={t('queues.option.message')}
          autoSize={{ minRows: 2, maxRows: 6 }}
          maxLength={10_000}
          value={draft.greetingMessage}
          onChange={(event) => set({ greetingMessage: event.target.value })}
        />
        {problems.length > 0 ? (
          <Typography.Text type="danger" role="alert">
            {problems.map((problem) => t(`queues.option.errors.${problem}`)).join(' ')}
          </Typography.Text>
        ) : null}
        <OptionList
          drafts={draft.options}
          path={path}
          root={root}
          onChange={onChange}
          queues={queues}
          users={users}
          integrations={integrations}
        />
        {draft.queueType === 'text' ? (
          <Tooltip title={nestable ? undefined : t('queues.option.nestNeedsMessage')}>
            <Button
              size="small"
              icon={<PlusOutlined />}
              disabled={!nestable}
              aria-label={`${label} — ${t('queues.option.addNested')}`}
              onClick={() => onChange(addOption(root, path))}
            >
              {t('queues.option.addNested')}
            </Button>
          </Tooltip>
        ) : null}
      </Space>
    </Card>
  );
}
