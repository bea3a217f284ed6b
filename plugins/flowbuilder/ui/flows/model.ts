import { FLOW_NODE_TYPES, waysOut } from '../../shared/flow-document';

/**
 * The flow document as the editor holds it (docs/product/automation.md#entities "Flow node"): nodes with a
 * position, a kind and the kind's data, and connections between them. The server's validator reads the same
 * shape; what the editor adds (selection, measured sizes) stays in React Flow's own state.
 */

/** Every node kind a flow holds (the shared document's). */
export const NODE_KINDS = FLOW_NODE_TYPES;
export type NodeKind = (typeof NODE_KINDS)[number];

/** The speed dial the product documents, in its order (docs/product/automation.md "Flow list and editor"). */
export const SPEED_DIAL_KINDS: readonly NodeKind[] = [
  'start',
  'singleBlock',
  'menu',
  'question',
  'randomizer',
  'interval',
  'ticket',
  'typebot',
  'openai',
];

/**
 * What the add menu offers after the speed dial: the single-media kinds older flows are made of, and the
 * condition — "created internally" in the product, yet the runtime branches on it and nothing else lets a
 * flow act on a question's answer, so the editor makes it too.
 */
export const EXTRA_KINDS: readonly NodeKind[] = ['message', 'img', 'audio', 'video', 'condition'];

/** Every kind the add menu can offer. */
export const ADDABLE_KINDS: readonly NodeKind[] = [...SPEED_DIAL_KINDS, ...EXTRA_KINDS];

/** The documented numbers of the editor (docs/product/automation.md#constants-and-limits). */
export const FLOW_LIMITS = {
  nodeIdLength: 30,
  placementGapPx: 40,
  duplicateOffsetPx: 240,
  intervalMinSeconds: 1,
  intervalMaxSeconds: 120,
  imageMaxBytes: 2 * 1024 * 1024,
  audioMaxBytes: 5 * 1024 * 1024,
  videoMaxBytes: 20 * 1024 * 1024,
  randomizerStep: 10,
  nameMin: 2,
  nameMax: 50,
  /** A node's width before React Flow measured it (the placement of the next one needs one). */
  defaultNodeWidth: 220,
} as const;

export const MEDIA_RULES = {
  img: { maxBytes: FLOW_LIMITS.imageMaxBytes, extensions: ['png', 'jpg', 'jpeg'], accept: '.png,.jpg,.jpeg' },
  audio: { maxBytes: FLOW_LIMITS.audioMaxBytes, extensions: ['ogg', 'mp3', 'opus'], accept: '.ogg,.mp3,.opus' },
  video: { maxBytes: FLOW_LIMITS.videoMaxBytes, extensions: ['mp4'], accept: '.mp4' },
} as const;
export type MediaKind = keyof typeof MEDIA_RULES;

export interface MenuOption {
  number: number;
  value: string;
}

export type ContentElementType = 'message' | 'interval' | 'img' | 'audio' | 'video';

/** One element of a content block: a text, a pause, or a media file already stored on the server. */
export interface ContentElement {
  number: string;
  type: ContentElementType;
  value: string;
  original?: string;
  record?: boolean;
}

export interface TypebotNodeSettings {
  type?: string;
  name: string;
  projectName: string;
  jsonContent: string;
  language: string;
  urlN8N: string;
  typebotDelayMessage: number;
  typebotExpires: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotRestartMessage: string;
  typebotSlug: string;
  typebotUnknownMessage: string;
}

export interface OpenAiNodeSettings {
  name: string;
  prompt: string;
  voice: string;
  voiceKey: string;
  voiceRegion: string;
  maxTokens: number;
  temperature: number;
  apiKey: string;
  queueId: null;
  maxMessages: number;
}

export interface QuestionNodeSettings {
  message: string;
  answerKey: string;
}

/** The data of each kind, as stored. */
export interface NodeDataByKind {
  start: { label: string };
  message: { label: string };
  interval: { label: string; sec: number };
  condition: { key: string; condition: string; value: string };
  menu: { message: string; arrayOption: MenuOption[] };
  img: { url: string };
  audio: { url: string; record: boolean };
  video: { url: string };
  randomizer: { percent: number };
  singleBlock: { seq: string[]; elements: ContentElement[] };
  /** The queue the ticket is handed to (the shared document names it `data`). */
  ticket: { data: { id: number; name: string } };
  typebot: { typebotIntegration: TypebotNodeSettings };
  openai: { typebotIntegration: OpenAiNodeSettings };
  question: { typebotIntegration: QuestionNodeSettings };
}

export type FlowNodeData = NodeDataByKind[NodeKind];

export interface FlowDocumentNode {
  id: string;
  type: NodeKind;
  position: { x: number; y: number };
  data: FlowNodeData;
}

export interface FlowDocumentConnection {
  id: string;
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
}

export interface FlowDocument {
  nodes: FlowDocumentNode[];
  connections: FlowDocumentConnection[];
}

/** The start node a new flow begins with (id 1, as documented). */
export const START_NODE_ID = '1';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A node id: 30 random alphanumerics, from the browser's cryptographic source. */
export function newNodeId(length: number = FLOW_LIMITS.nodeIdLength): string {
  let id = '';
  while (id.length < length) {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(length));
    // 248 is the largest multiple of 62 under 256: dropping bytes above it keeps every character equally likely
    for (const byte of bytes) if (byte < 248 && id.length < length) id += ALPHANUMERIC[byte % ALPHANUMERIC.length];
  }
  return id;
}

export const DEFAULT_TYPEBOT: TypebotNodeSettings = {
  type: 'typebot',
  name: '',
  projectName: '',
  jsonContent: '',
  language: '',
  urlN8N: '',
  typebotDelayMessage: 1000,
  typebotExpires: 1,
  typebotKeywordFinish: '',
  typebotKeywordRestart: '',
  typebotRestartMessage: '',
  typebotSlug: '',
  typebotUnknownMessage: '',
};

/**
 * The openai node's voices, the AI plugin's prompt dialog's list (not shared through the SDK): `texto`
 * answers in text, the others are the speech service's Brazilian Portuguese neural voices.
 */
export const OPENAI_VOICES = [
  'texto',
  'pt-BR-FranciscaNeural',
  'pt-BR-AntonioNeural',
  'pt-BR-BrendaNeural',
  'pt-BR-DonatoNeural',
  'pt-BR-ElzaNeural',
  'pt-BR-FabioNeural',
  'pt-BR-GiovannaNeural',
  'pt-BR-HumbertoNeural',
  'pt-BR-JulioNeural',
  'pt-BR-LeilaNeural',
  'pt-BR-LeticiaNeural',
  'pt-BR-ManuelaNeural',
  'pt-BR-NicolauNeural',
  'pt-BR-ValerioNeural',
  'pt-BR-YaraNeural',
] as const;

export const DEFAULT_OPENAI: OpenAiNodeSettings = {
  name: '',
  prompt: '',
  voice: 'texto',
  voiceKey: '',
  voiceRegion: '',
  maxTokens: 100,
  temperature: 1,
  apiKey: '',
  queueId: null,
  maxMessages: 10,
};

/** The label an interval node shows. */
export const intervalLabel = (sec: number) => `Intervalo ${sec} seg.`;

/** The data a node of `kind` starts with before its dialog fills it. */
export function emptyData<K extends NodeKind>(kind: K): NodeDataByKind[K] {
  const data: { [Kind in NodeKind]: NodeDataByKind[Kind] } = {
    start: { label: 'Inicio do fluxo' },
    message: { label: '' },
    interval: { label: intervalLabel(1), sec: 1 },
    condition: { key: '', condition: '==', value: '' },
    menu: { message: '', arrayOption: [{ number: 1, value: '' }] },
    img: { url: '' },
    audio: { url: '', record: false },
    video: { url: '' },
    randomizer: { percent: 50 },
    singleBlock: { seq: [], elements: [] },
    ticket: { data: { id: 0, name: '' } },
    typebot: { typebotIntegration: { ...DEFAULT_TYPEBOT } },
    openai: { typebotIntegration: { ...DEFAULT_OPENAI } },
    question: { typebotIntegration: { message: '', answerKey: '' } },
  };
  return data[kind];
}

/** The kinds that open a dialog when added (the others are placed at once). */
export const KINDS_WITHOUT_DIALOG: readonly NodeKind[] = ['start'];

interface Placed {
  position: { x: number; y: number };
  measured?: { width?: number };
  width?: number;
}

/** Where a new node goes: right of the last node, 40 px after its right edge, on its row. */
export function placementAfter(last: Placed | undefined): { x: number; y: number } {
  if (!last) return { x: 100, y: 100 };
  const width = last.measured?.width ?? last.width ?? FLOW_LIMITS.defaultNodeWidth;
  return { x: last.position.x + width + FLOW_LIMITS.placementGapPx, y: last.position.y };
}

/** Where a duplicate goes: 240 px right of the right-most node, on the original's row. */
export function duplicatePlacement(nodes: readonly Placed[], original: Placed): { x: number; y: number } {
  const rightMost = Math.max(...nodes.map((node) => node.position.x));
  return { x: rightMost + FLOW_LIMITS.duplicateOffsetPx, y: original.position.y };
}

/** The variable names the question nodes store answers in (rebuilt whenever a flow loads). */
export function questionVariables(nodes: readonly { type?: string; data: unknown }[]): string[] {
  const names = new Set<string>();
  for (const node of nodes) {
    if (node.type !== 'question') continue;
    const key = (node.data as NodeDataByKind['question']).typebotIntegration?.answerKey?.trim();
    if (key) names.add(key);
  }
  return [...names].sort();
}

/** The out-handles of a node: one per menu option (`a1`, `a2`…), `a` and `b` for a randomizer or a condition, one otherwise. */
export function outHandles(kind: NodeKind, data: FlowNodeData): string[] {
  return waysOut({ type: kind, data } as Parameters<typeof waysOut>[0]) ?? ['a'];
}
