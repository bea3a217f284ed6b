import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { showError, useTranslation } from '@balcao/plugin-sdk/ui';
import {
  Alert,
  AutoComplete,
  Button,
  Card,
  Checkbox,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Slider,
  Space,
  Tag,
  Typography,
  Upload,
} from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect, useMemo, useState } from 'react';
import { CONDITION_OPERATORS, CONTACT_VARIABLES } from '../../shared/flow-document';
import { useFlowQueueChoicesQuery, useUploadFlowMediaMutation } from '../api';
import {
  type ContentElement,
  type ContentElementType,
  DEFAULT_OPENAI,
  DEFAULT_TYPEBOT,
  emptyData,
  FLOW_LIMITS,
  type FlowNodeData,
  intervalLabel,
  MEDIA_RULES,
  type MediaKind,
  type NodeDataByKind,
  type NodeKind,
  newNodeId,
  OPENAI_VOICES,
} from './model';
import { maskedKey } from './openai';
import { contentProblems, mediaProblem } from './validate';

export interface NodeDialogProps {
  open: boolean;
  mode: 'create' | 'edit';
  kind: NodeKind;
  data?: FlowNodeData;
  /** The variables the flow's question nodes store (shown as `{{name}}` hints). */
  variables: readonly string[];
  /** Whether an openai node can run here (false: its dialog only shows why not; undefined: not known yet). */
  openaiAvailable?: boolean;
  onSave(data: FlowNodeData): void;
  onCancel(): void;
}

/** The edit dialog of a node (modes create and edit), with each kind's documented checks. */
export function NodeDialog({ open, mode, kind, data, variables, openaiAvailable, onSave, onCancel }: NodeDialogProps) {
  const { t } = useTranslation('flowbuilder');
  const [form] = Form.useForm();
  const [elements, setElements] = useState<ContentElement[]>([]);
  const [blockProblems, setBlockProblems] = useState<string[]>([]);
  const start = (data ?? emptyData(kind)) as FlowNodeData;
  useEffect(() => {
    if (!open) return;
    const first = (data ?? emptyData(kind)) as FlowNodeData;
    setElements(kind === 'singleBlock' ? [...(first as NodeDataByKind['singleBlock']).elements] : []);
    setBlockProblems([]);
  }, [open, kind, data]);

  const submit = (values: Record<string, unknown>) => {
    if (kind === 'singleBlock') {
      const block = { seq: elements.map((element) => element.number), elements };
      const problems = contentProblems(block);
      setBlockProblems(problems);
      if (problems.length) return;
      onSave(block);
      return;
    }
    onSave(fromForm(kind, values, start));
  };
  // an openai node the company can't run stays as it is: it can be read, not changed
  const locked = kind === 'openai' && openaiAvailable === false;

  return (
    <Modal
      open={open}
      title={t(mode === 'create' ? 'dialog.createTitle' : 'dialog.editTitle', { kind: t(`kinds.${kind}`) })}
      onCancel={onCancel}
      onOk={() => form.submit()}
      okText={t(mode === 'create' ? 'dialog.add' : 'actions.save')}
      okButtonProps={{ disabled: locked }}
      cancelText={t('actions.cancel')}
      destroyOnHidden
      width={kind === 'singleBlock' || kind === 'openai' || kind === 'typebot' ? 680 : 520}
    >
      {locked ? <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('openai.unavailable')} /> : null}
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        name={`node-${kind}`}
        initialValues={toForm(kind, start)}
        disabled={locked}
      >
        <KindFields
          kind={kind}
          form={form}
          elements={elements}
          setElements={setElements}
          variables={variables}
          savedKey={kind === 'openai' ? (start as NodeDataByKind['openai']).typebotIntegration?.apiKey : undefined}
        />
        {variables.length && (kind === 'message' || kind === 'menu' || kind === 'singleBlock' || kind === 'question') ? (
          <Flex wrap gap={4} align="center" style={{ marginTop: 8 }}>
            <Typography.Text type="secondary">{t('dialog.variables')}</Typography.Text>
            {variables.map((name) => (
              <Tag key={name}>{`{{${name}}}`}</Tag>
            ))}
          </Flex>
        ) : null}
        {blockProblems.length ? (
          <Alert
            type="error"
            showIcon
            style={{ marginTop: 12 }}
            title={blockProblems.map((problem) => <div key={problem}>{t(problem)}</div>)}
          />
        ) : null}
      </Form>
    </Modal>
  );
}

/** The data of a kind as the form holds it (nested fields flattened where the form needs them). */
function toForm(kind: NodeKind, data: FlowNodeData): Record<string, unknown> {
  switch (kind) {
    case 'typebot':
      return { ...DEFAULT_TYPEBOT, ...(data as NodeDataByKind['typebot']).typebotIntegration };
    case 'openai':
      // the key is never shown again: a blank field keeps it (the field says so)
      return { ...DEFAULT_OPENAI, ...(data as NodeDataByKind['openai']).typebotIntegration, apiKey: '' };
    case 'question':
      return { ...(data as NodeDataByKind['question']).typebotIntegration };
    case 'ticket':
      return {
        queueId: (data as NodeDataByKind['ticket']).data?.id || undefined,
        queue: (data as NodeDataByKind['ticket']).data,
      };
    default:
      return { ...(data as object) };
  }
}

function fromForm(kind: NodeKind, values: Record<string, unknown>, before: FlowNodeData): FlowNodeData {
  const text = (name: string) => String(values[name] ?? '').trim();
  switch (kind) {
    case 'start':
      return emptyData('start');
    case 'message':
      return { label: text('label') };
    case 'interval': {
      const sec = Number(values.sec);
      return { label: intervalLabel(sec), sec };
    }
    case 'menu': {
      const options = (values.arrayOption as { value?: string }[] | undefined) ?? [];
      return {
        message: text('message'),
        arrayOption: options.map((option, index) => ({ number: index + 1, value: (option.value ?? '').trim() })),
      };
    }
    case 'img':
    case 'video':
      return { url: text('url') };
    case 'audio':
      return { url: text('url'), record: Boolean(values.record) };
    case 'randomizer':
      return { percent: Number(values.percent) };
    case 'ticket':
      return { data: (values.queue as { id: number; name: string } | undefined) ?? { id: 0, name: '' } };
    case 'question':
      return { typebotIntegration: { message: text('message'), answerKey: text('answerKey') } };
    case 'typebot': {
      const name = text('name');
      return { typebotIntegration: { ...DEFAULT_TYPEBOT, ...values, name, projectName: name } as never };
    }
    case 'openai': {
      const number = (name: 'maxTokens' | 'temperature' | 'maxMessages') =>
        typeof values[name] === 'number' ? (values[name] as number) : DEFAULT_OPENAI[name];
      const voice = text('voice') || DEFAULT_OPENAI.voice;
      const kept = (before as NodeDataByKind['openai']).typebotIntegration?.apiKey ?? '';
      return {
        typebotIntegration: {
          name: text('name'),
          prompt: text('prompt'),
          voice,
          // a voice's key and region mean something only with a voice
          voiceKey: voice === 'texto' ? '' : text('voiceKey'),
          voiceRegion: voice === 'texto' ? '' : text('voiceRegion'),
          maxTokens: number('maxTokens'),
          temperature: number('temperature'),
          // blank keeps the saved key (the server's masked form, which it maps back to the sealed one)
          apiKey: text('apiKey') || kept,
          queueId: null,
          maxMessages: number('maxMessages'),
        },
      };
    }
    case 'condition':
      return { key: text('key'), condition: text('condition'), value: text('value') };
    case 'singleBlock':
      return emptyData('singleBlock');
  }
}

interface FieldsProps {
  kind: NodeKind;
  form: ReturnType<typeof Form.useForm>[0];
  elements: ContentElement[];
  setElements(elements: ContentElement[]): void;
  variables: readonly string[];
  /** The openai node's key as the node holds it (blank for a new node). */
  savedKey?: string;
}

function KindFields({ kind, form, elements, setElements, variables, savedKey }: FieldsProps) {
  const { t } = useTranslation('flowbuilder');
  const required = (key: string): Rule => ({ required: true, whitespace: true, message: t(key) });
  switch (kind) {
    case 'start':
      return <Typography.Paragraph>{t('dialog.startHint')}</Typography.Paragraph>;
    case 'message':
      return (
        <Form.Item name="label" label={t('dialog.message')} rules={[required('validation.emptyMessage')]}>
          <Input.TextArea rows={4} autoFocus />
        </Form.Item>
      );
    case 'interval':
      return <IntervalField name="sec" />;
    case 'menu':
      return <MenuFields />;
    case 'img':
    case 'audio':
    case 'video':
      return (
        <>
          <Form.Item name="url" label={t(`kinds.${kind}`)} rules={[required('validation.emptyMedia')]}>
            <MediaPicker kind={kind} />
          </Form.Item>
          {kind === 'audio' ? (
            <Form.Item name="record" valuePropName="checked">
              <Checkbox>{t('dialog.record')}</Checkbox>
            </Form.Item>
          ) : null}
        </>
      );
    case 'randomizer':
      return <RandomizerField />;
    case 'singleBlock':
      return <ContentFields elements={elements} setElements={setElements} />;
    case 'ticket':
      return <QueueField form={form} />;
    case 'question':
      return (
        <>
          <Form.Item name="message" label={t('dialog.question')} rules={[required('validation.questionMessage')]}>
            <Input.TextArea rows={3} autoFocus />
          </Form.Item>
          <Form.Item
            name="answerKey"
            label={t('dialog.answerKey')}
            extra={t('dialog.answerKeyHint')}
            rules={[
              required('validation.answerKey'),
              { pattern: /^[A-Za-z_][A-Za-z0-9_]*$/, message: t('validation.answerKeyFormat') },
            ]}
          >
            <Input />
          </Form.Item>
        </>
      );
    case 'typebot':
      return <TypebotFields />;
    case 'openai':
      return <OpenAiFields savedKey={savedKey} />;
    case 'condition':
      return (
        <Space wrap align="start">
          <Form.Item name="key" label={t('dialog.conditionKey')} rules={[required('validation.condition')]}>
            <AutoComplete
              style={{ width: 180 }}
              options={[...new Set([...variables, ...CONTACT_VARIABLES])].map((value) => ({ value }))}
              filterOption={(typed, option) => String(option?.value ?? '').startsWith(typed)}
            />
          </Form.Item>
          <Form.Item name="condition" label={t('dialog.condition')} rules={[required('validation.condition')]}>
            <Select style={{ width: 140 }} options={CONDITION_OPERATORS.map((value) => ({ value, label: value }))} />
          </Form.Item>
          <Form.Item name="value" label={t('dialog.conditionValue')}>
            <Input />
          </Form.Item>
        </Space>
      );
  }
}

function IntervalField({ name }: { name: string }) {
  const { t } = useTranslation('flowbuilder');
  return (
    <Form.Item
      name={name}
      label={t('dialog.seconds')}
      rules={[
        { required: true, message: t('validation.intervalRequired') },
        { type: 'number', min: FLOW_LIMITS.intervalMinSeconds, message: t('validation.intervalRequired') },
        { type: 'number', max: FLOW_LIMITS.intervalMaxSeconds, message: t('validation.intervalMax') },
      ]}
    >
      <InputNumber precision={0} style={{ width: 160 }} autoFocus />
    </Form.Item>
  );
}

function MenuFields() {
  const { t } = useTranslation('flowbuilder');
  return (
    <>
      <Form.Item
        name="message"
        label={t('dialog.menuMessage')}
        rules={[{ required: true, whitespace: true, message: t('validation.menuMessage') }]}
      >
        <Input.TextArea rows={3} autoFocus />
      </Form.Item>
      <Form.List name="arrayOption">
        {(fields, { add, remove }) => (
          <>
            {fields.map((field, index) => (
              <Flex key={field.key} gap={8} align="baseline">
                <Tag>{index + 1}</Tag>
                <Form.Item
                  name={[field.name, 'value']}
                  style={{ flex: 1 }}
                  rules={[{ required: true, whitespace: true, message: t('validation.menuOptions') }]}
                >
                  <Input aria-label={t('dialog.option', { number: index + 1 })} />
                </Form.Item>
                {/* only the last option can go: the numbers of the others stay what the customer was told */}
                {index === fields.length - 1 && fields.length > 1 ? (
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('dialog.removeOption')}
                    onClick={() => remove(field.name)}
                  />
                ) : (
                  <span style={{ width: 32 }} />
                )}
              </Flex>
            ))}
            <Button icon={<PlusOutlined />} onClick={() => add({ value: '' })}>
              {t('dialog.addOption')}
            </Button>
          </>
        )}
      </Form.List>
    </>
  );
}

function RandomizerField() {
  const { t } = useTranslation('flowbuilder');
  const percent = Form.useWatch('percent') as number | undefined;
  return (
    <>
      <Form.Item name="percent" label={t('dialog.percent')}>
        <Slider min={0} max={100} step={FLOW_LIMITS.randomizerStep} />
      </Form.Item>
      <Typography.Text>{t('dialog.complement', { first: percent ?? 0, second: 100 - (percent ?? 0) })}</Typography.Text>
    </>
  );
}

function QueueField({ form }: { form: FieldsProps['form'] }) {
  const { t } = useTranslation('flowbuilder');
  const { data: queues, isLoading } = useFlowQueueChoicesQuery();
  return (
    <>
      <Form.Item name="queueId" label={t('dialog.queue')} rules={[{ required: true, message: t('validation.queueRequired') }]}>
        <Select
          loading={isLoading}
          showSearch
          optionFilterProp="label"
          options={(queues ?? []).map((queue) => ({ value: queue.id, label: queue.name }))}
          onChange={(id: number) => {
            const queue = queues?.find((item) => item.id === id);
            form.setFieldValue('queue', queue ? { id: queue.id, name: queue.name } : undefined);
          }}
        />
      </Form.Item>
      <Form.Item name="queue" hidden>
        <Input />
      </Form.Item>
    </>
  );
}

function TypebotFields() {
  const { t } = useTranslation('flowbuilder');
  return (
    <>
      <Form.Item
        name="name"
        label={t('fields.name')}
        rules={[
          { required: true, whitespace: true, message: t('validation.required') },
          { min: FLOW_LIMITS.nameMin, message: t('validation.tooShort') },
          { max: FLOW_LIMITS.nameMax, message: t('validation.tooLong') },
        ]}
      >
        <Input autoFocus />
      </Form.Item>
      <Form.Item name="urlN8N" label={t('fields.url')} rules={[{ required: true, type: 'url', message: t('validation.url') }]}>
        <Input placeholder="https://" />
      </Form.Item>
      <Form.Item
        name="typebotSlug"
        label={t('fields.typebotSlug')}
        rules={[{ required: true, whitespace: true, message: t('validation.required') }]}
      >
        <Input />
      </Form.Item>
      <Space wrap>
        <Form.Item name="typebotExpires" label={t('fields.typebotExpires')}>
          <InputNumber min={0} precision={0} />
        </Form.Item>
        <Form.Item name="typebotDelayMessage" label={t('fields.typebotDelayMessage')}>
          <InputNumber min={0} max={60000} step={100} precision={0} />
        </Form.Item>
        <Form.Item name="typebotKeywordFinish" label={t('fields.typebotKeywordFinish')}>
          <Input />
        </Form.Item>
        <Form.Item name="typebotKeywordRestart" label={t('fields.typebotKeywordRestart')}>
          <Input />
        </Form.Item>
      </Space>
      <Form.Item name="typebotUnknownMessage" label={t('fields.typebotUnknownMessage')}>
        <Input />
      </Form.Item>
      <Form.Item name="typebotRestartMessage" label={t('fields.typebotRestartMessage')}>
        <Input />
      </Form.Item>
    </>
  );
}

function OpenAiFields({ savedKey }: { savedKey?: string }) {
  const { t } = useTranslation('flowbuilder');
  const voice = (Form.useWatch('voice') as string | undefined) ?? DEFAULT_OPENAI.voice;
  const required: Rule = { required: true, whitespace: true, message: t('validation.openaiRequired') };
  const keyKept = Boolean(savedKey?.trim());
  return (
    <>
      <Form.Item name="name" label={t('fields.name')} rules={[required]}>
        <Input autoFocus />
      </Form.Item>
      <Form.Item
        name="apiKey"
        label={t('dialog.apiKey')}
        rules={keyKept ? [] : [required]}
        extra={keyKept ? t('openai.keyKept', { masked: maskedKey(savedKey ?? '') }) : undefined}
      >
        <Input.Password autoComplete="off" placeholder={keyKept ? maskedKey(savedKey ?? '') : undefined} />
      </Form.Item>
      <Form.Item name="prompt" label={t('dialog.prompt')} rules={[required]}>
        <Input.TextArea rows={5} />
      </Form.Item>
      <Form.Item name="voice" label={t('dialog.voice')}>
        <Select
          style={{ width: 240 }}
          options={OPENAI_VOICES.map((value) => ({ value, label: voiceLabel(value, t('openai.textVoice')) }))}
        />
      </Form.Item>
      {voice !== 'texto' ? (
        <Space wrap>
          <Form.Item name="voiceKey" label={t('dialog.voiceKey')}>
            <Input.Password autoComplete="off" />
          </Form.Item>
          <Form.Item name="voiceRegion" label={t('dialog.voiceRegion')}>
            <Input />
          </Form.Item>
        </Space>
      ) : null}
      <Space wrap>
        <Form.Item name="maxTokens" label={t('dialog.maxTokens')}>
          <InputNumber min={1} max={4096} precision={0} />
        </Form.Item>
        <Form.Item name="temperature" label={t('dialog.temperature')}>
          <InputNumber min={0} max={2} step={0.1} />
        </Form.Item>
        <Form.Item name="maxMessages" label={t('dialog.maxMessages')}>
          <InputNumber min={1} max={50} precision={0} />
        </Form.Item>
      </Space>
    </>
  );
}

/** A voice as the AI plugin's prompt dialog names it: "Texto", or the speaker's name alone. */
const voiceLabel = (voice: string, text: string) => (voice === 'texto' ? text : voice.replace(/^pt-BR-|Neural$/g, ''));

/** A media field: checks the file's type and size before uploading, then holds the stored name. */
function MediaPicker({ kind, value, onChange }: { kind: MediaKind; value?: string; onChange?(value: string): void }) {
  const { t } = useTranslation('flowbuilder');
  const [upload, uploading] = useUploadFlowMediaMutation();
  const [problem, setProblem] = useState<string>();
  return (
    <Flex vertical gap={4}>
      <Upload
        accept={MEDIA_RULES[kind].accept}
        showUploadList={false}
        beforeUpload={(file) => {
          const refused = mediaProblem(kind, file);
          setProblem(refused);
          if (refused) return Upload.LIST_IGNORE;
          upload({ kind, file })
            .unwrap()
            .then((name) => onChange?.(name))
            .catch(showError);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={uploading.isLoading}>
          {t('dialog.chooseFile')}
        </Button>
      </Upload>
      {value ? <Typography.Text code>{value}</Typography.Text> : null}
      {problem ? <Typography.Text type="danger">{t(problem)}</Typography.Text> : null}
    </Flex>
  );
}

const ELEMENT_TYPES: ContentElementType[] = ['message', 'interval', 'img', 'audio', 'video'];

/** A content block: an ordered list of texts, pauses and media cards. */
function ContentFields({ elements, setElements }: Pick<FieldsProps, 'elements' | 'setElements'>) {
  const { t } = useTranslation('flowbuilder');
  const change = (index: number, patch: Partial<ContentElement>) =>
    setElements(elements.map((element, at) => (at === index ? { ...element, ...patch } : element)));
  const move = (index: number, by: number) => {
    const next = [...elements];
    const [moved] = next.splice(index, 1);
    if (moved) next.splice(index + by, 0, moved);
    setElements(next);
  };
  const addButtons = useMemo(
    () =>
      ELEMENT_TYPES.map((type) => (
        <Button
          key={type}
          size="small"
          icon={<PlusOutlined />}
          onClick={() =>
            setElements([
              ...elements,
              {
                number: newNodeId(),
                type,
                value: type === 'interval' ? '1' : '',
                ...(type === 'audio' ? { record: false } : {}),
              },
            ])
          }
        >
          {t(`elements.${type}`)}
        </Button>
      )),
    [elements, setElements, t],
  );
  return (
    <Flex vertical gap={8}>
      {elements.map((element, index) => (
        <Card
          key={element.number}
          size="small"
          title={t(`elements.${element.type}`)}
          extra={
            <Space size={0}>
              <Button
                type="text"
                size="small"
                icon={<ArrowUpOutlined />}
                disabled={index === 0}
                aria-label={t('dialog.moveUp')}
                onClick={() => move(index, -1)}
              />
              <Button
                type="text"
                size="small"
                icon={<ArrowDownOutlined />}
                disabled={index === elements.length - 1}
                aria-label={t('dialog.moveDown')}
                onClick={() => move(index, 1)}
              />
              <Button
                type="text"
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('actions.delete')}
                onClick={() => setElements(elements.filter((_, at) => at !== index))}
              />
            </Space>
          }
        >
          {element.type === 'message' ? (
            <Input.TextArea
              rows={3}
              value={element.value}
              aria-label={t('elements.message')}
              onChange={(event) => change(index, { value: event.target.value })}
            />
          ) : element.type === 'interval' ? (
            <InputNumber
              precision={0}
              value={Number(element.value)}
              aria-label={t('dialog.seconds')}
              addonAfter="s"
              onChange={(sec) => change(index, { value: String(sec ?? '') })}
            />
          ) : (
            <>
              <MediaPicker
                kind={element.type}
                value={element.value}
                onChange={(value) => change(index, { value, original: value })}
              />
              {element.type === 'audio' ? (
                <Checkbox checked={element.record} onChange={(event) => change(index, { record: event.target.checked })}>
                  {t('dialog.record')}
                </Checkbox>
              ) : null}
            </>
          )}
        </Card>
      ))}
      <Flex wrap gap={6}>
        {addButtons}
      </Flex>
    </Flex>
  );
}
