import {
  ApiOutlined,
  BranchesOutlined,
  ClockCircleOutlined,
  CopyOutlined,
  DeleteOutlined,
  FileImageOutlined,
  MessageOutlined,
  OpenAIOutlined,
  OrderedListOutlined,
  PlayCircleOutlined,
  QuestionCircleOutlined,
  RobotOutlined,
  SoundOutlined,
  StopOutlined,
  SwapOutlined,
  TagsOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Handle, type Node, type NodeProps, type NodeTypes, Position } from '@xyflow/react';
import { type ComponentType, createContext, memo, type ReactNode, useContext } from 'react';
import { type FlowNodeData, NODE_KINDS, type NodeDataByKind, type NodeKind, outHandles } from './model';

export type CanvasNode = Node<FlowNodeData & Record<string, unknown>, NodeKind>;

/** What a node's buttons do; given once by the editor through context so nodes stay memoised. */
export interface NodeActions {
  readOnly: boolean;
  duplicate(id: string): void;
  remove(id: string): void;
  /** Node ids of a replay's path (empty when editing). */
  visited?: ReadonlySet<string>;
  /** The replay's selected step's node. */
  current?: string;
  /** False when this company can't run openai nodes: the ones a flow holds say so. */
  openaiAvailable?: boolean;
}

export const NodeActionsContext = createContext<NodeActions>({ readOnly: true, duplicate() {}, remove() {} });

export const KIND_LOOK: Record<NodeKind, { icon: ComponentType; color: string }> = {
  start: { icon: PlayCircleOutlined, color: '#3ABA38' },
  message: { icon: MessageOutlined, color: '#6865A5' },
  interval: { icon: ClockCircleOutlined, color: '#F7953B' },
  menu: { icon: OrderedListOutlined, color: '#683AC8' },
  img: { icon: FileImageOutlined, color: '#6865A5' },
  audio: { icon: SoundOutlined, color: '#6865A5' },
  video: { icon: VideoCameraOutlined, color: '#6865A5' },
  randomizer: { icon: SwapOutlined, color: '#1FBADC' },
  singleBlock: { icon: TagsOutlined, color: '#EC5858' },
  question: { icon: QuestionCircleOutlined, color: '#F7953B' },
  ticket: { icon: BranchesOutlined, color: '#F7953B' },
  typebot: { icon: RobotOutlined, color: '#3aba38' },
  openai: { icon: OpenAIOutlined, color: '#10A37F' },
  condition: { icon: ApiOutlined, color: '#1677FF' },
};

const clip = (text: string | undefined, length = 80) => (!text ? '' : text.length > length ? `${text.slice(0, length)}…` : text);

/** The one line (or lines) a node shows of its data. */
function Summary({ kind, data }: { kind: NodeKind; data: FlowNodeData }): ReactNode {
  const { t } = useTranslation('flowbuilder');
  switch (kind) {
    case 'start':
    case 'message':
    case 'interval':
      return clip((data as NodeDataByKind['message']).label);
    case 'menu': {
      const menu = data as NodeDataByKind['menu'];
      return (
        <>
          <div>{clip(menu.message)}</div>
          {menu.arrayOption.map((option) => (
            <div key={option.number} style={{ textAlign: 'right', paddingRight: 4 }}>
              [{option.number}] {clip(option.value, 30)}
            </div>
          ))}
        </>
      );
    }
    case 'img':
    case 'audio':
    case 'video':
      return clip((data as { url: string }).url, 40) || t('editor.noFile');
    case 'randomizer': {
      const percent = (data as NodeDataByKind['randomizer']).percent;
      return (
        <>
          <div style={{ textAlign: 'right' }}>{percent}%</div>
          <div style={{ textAlign: 'right' }}>{100 - percent}%</div>
        </>
      );
    }
    case 'singleBlock': {
      const block = data as NodeDataByKind['singleBlock'];
      const first = block.elements.find((element) => element.type === 'message');
      return (
        <>
          <div>{t('editor.elements', { count: block.elements.length })}</div>
          {first ? <div>{clip(first.value, 60)}</div> : null}
        </>
      );
    }
    case 'ticket':
      return (data as NodeDataByKind['ticket']).data?.name || t('validation.queueRequired');
    case 'typebot':
    case 'openai':
      return clip((data as NodeDataByKind['typebot']).typebotIntegration?.name);
    case 'question': {
      const question = (data as NodeDataByKind['question']).typebotIntegration;
      return (
        <>
          <div>{clip(question?.message)}</div>
          {question?.answerKey ? <code>{`{{${question.answerKey}}}`}</code> : null}
        </>
      );
    }
    case 'condition': {
      const condition = data as NodeDataByKind['condition'];
      return (
        <>
          <div>{`${condition.key} ${condition.condition} ${condition.value}`}</div>
          {/* the two ways out, top to bottom as the handles are */}
          <div style={{ textAlign: 'right' }}>{t('editor.conditionHolds')}</div>
          <div style={{ textAlign: 'right' }}>{t('editor.conditionElse')}</div>
        </>
      );
    }
  }
}

/** A small flow opens at its real size, a big one at half size around its middle (readable, and light to paint). */
export const FIT_VIEW = { maxZoom: 1, minZoom: 0.5 };

const HANDLE_STYLE = { width: 10, height: 10 };

/** One card of the canvas; memoised so dragging one node never re-renders the others (300-node flows). */
function FlowNodeCard({ id, type, data, selected }: NodeProps<CanvasNode>) {
  const { t } = useTranslation('flowbuilder');
  const actions = useContext(NodeActionsContext);
  const kind = type as NodeKind;
  const look = KIND_LOOK[kind] ?? KIND_LOOK.message;
  const Icon = look.icon;
  const handles = outHandles(kind, data);
  const visited = actions.visited?.has(id) ?? false;
  const current = actions.current === id;
  const outline = current ? '3px solid #fa541c' : visited ? '3px solid #52c41a' : selected ? '2px solid #1677ff' : 'none';
  return (
    <div
      data-testid={`flow-node-${kind}`}
      data-node-id={id}
      data-visited={visited || undefined}
      style={{
        width: 220,
        background: 'var(--ant-color-bg-container, #fff)',
        color: 'var(--ant-color-text, #222)',
        border: `1px solid ${look.color}`,
        borderRadius: 8,
        boxShadow: '0 1px 4px rgba(0,0,0,0.15)',
        outline,
        outlineOffset: 2,
        fontSize: 12,
        opacity: actions.visited && actions.visited.size > 0 && !visited ? 0.45 : 1,
      }}
    >
      {kind === 'start' ? null : <Handle type="target" position={Position.Left} style={HANDLE_STYLE} />}
      <div
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 6,
          padding: '6px 8px',
          background: look.color,
          color: '#fff',
          borderRadius: '7px 7px 0 0',
        }}
      >
        <Icon />
        <span style={{ flex: 1, fontWeight: 600 }}>{t(`kinds.${kind}`)}</span>
        {actions.readOnly || kind === 'start' ? null : (
          <>
            <button
              type="button"
              className="nodrag"
              aria-label={t('editor.duplicateNode')}
              title={t('editor.duplicateNode')}
              onClick={() => actions.duplicate(id)}
              style={ICON_BUTTON}
            >
              <CopyOutlined />
            </button>
            <button
              type="button"
              className="nodrag"
              aria-label={t('editor.deleteNode')}
              title={t('editor.deleteNode')}
              onClick={() => actions.remove(id)}
              style={ICON_BUTTON}
            >
              <DeleteOutlined />
            </button>
          </>
        )}
      </div>
      <div style={{ padding: 8, wordBreak: 'break-word', minHeight: 24 }}>
        <Summary kind={kind} data={data} />
        {kind === 'openai' && actions.openaiAvailable === false ? (
          <div data-testid="openai-unavailable" role="note" style={UNAVAILABLE}>
            <StopOutlined /> {t('openai.unavailable')}
          </div>
        ) : null}
      </div>
      {handles.map((handle, index) => (
        <Handle
          key={handle}
          id={handle}
          type="source"
          position={Position.Right}
          style={{ ...HANDLE_STYLE, top: handles.length === 1 ? '50%' : `${((index + 1) / (handles.length + 1)) * 100}%` }}
        />
      ))}
    </div>
  );
}

const UNAVAILABLE = {
  marginTop: 6,
  padding: '4px 6px',
  borderRadius: 4,
  background: 'rgba(250, 173, 20, 0.15)',
  color: 'var(--ant-color-warning-text, #ad6800)',
} as const;

const ICON_BUTTON = {
  background: 'transparent',
  border: 'none',
  color: '#fff',
  cursor: 'pointer',
  padding: 2,
} as const;

const MemoFlowNodeCard = memo(FlowNodeCard);

/** React Flow's node types: every kind renders through the same memoised card (a stable object). */
export const NODE_TYPES: NodeTypes = Object.fromEntries(NODE_KINDS.map((kind) => [kind, MemoFlowNodeCard]));
