/**
 * The flow document the editor saves and the runtime walks, shared by the server and the browser: its
 * types, its limits, and `checkFlow`, the pure check that lists what is wrong in a flow
 * (docs/product/automation.md#flow-documents). No imports: it runs in the editor as it is.
 *
 * Shape: `{ nodes, connections }`. A node has an `id` (the editor makes 30 random letters and digits; the
 * start node of a new flow is "1"), a `position`, a `type` and the `data` of its kind. A connection goes from
 * `source` to `target`; a node with several ways out names the one it leaves by in `sourceHandle`:
 * a menu `a<option number>`, a randomizer `a` (its percent) or `b` (the rest), a condition `a` (holds) or `b`.
 */

export const FLOW_NODE_TYPES = [
  'start',
  'message',
  'interval',
  'menu',
  'img',
  'audio',
  'video',
  'randomizer',
  'singleBlock',
  'question',
  'ticket',
  'typebot',
  'openai',
  'condition',
] as const;
export type FlowNodeType = (typeof FLOW_NODE_TYPES)[number];

/** The largest flow document, as JSON (UTF-8 bytes). */
export const FLOW_DOCUMENT_MAX_BYTES = 1024 * 1024;
/** Node ids: letters, digits, `_` and `-`; the editor makes them 30 long. */
export const FLOW_NODE_ID_LENGTH = 30;
export const FLOW_NODE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const FLOW_MAX_NODES = 2000;
export const INTERVAL_MIN_SECONDS = 1;
export const INTERVAL_MAX_SECONDS = 120;
export const RANDOMIZER_STEP = 10;
export const FLOW_NAME_MIN = 2;
export const FLOW_NAME_MAX = 50;
export const TYPEBOT_NAME_MIN = 2;
export const TYPEBOT_NAME_MAX = 50;
/** A variable name a question stores its answer under. */
export const VARIABLE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,49}$/;
/** Variables every run has without a question: the contact's fields. */
export const CONTACT_VARIABLES = ['name', 'number', 'email'] as const;

/** Media a node may carry: size and kind, by the node (or content element) type. */
export const FLOW_MEDIA_LIMITS = {
  img: { maxBytes: 2 * 1024 * 1024, extensions: ['png', 'jpg', 'jpeg'], mimeTypes: ['image/png', 'image/jpeg'] },
  audio: {
    maxBytes: 5 * 1024 * 1024,
    extensions: ['ogg', 'mp3', 'opus'],
    mimeTypes: ['audio/ogg', 'audio/mpeg', 'audio/mp3', 'audio/opus'],
  },
  video: { maxBytes: 20 * 1024 * 1024, extensions: ['mp4'], mimeTypes: ['video/mp4'] },
} as const;
export type FlowMediaKind = keyof typeof FLOW_MEDIA_LIMITS;

export interface FlowPosition {
  x: number;
  y: number;
}

export interface StartNodeData {
  label?: string;
}
export interface MessageNodeData {
  label: string;
}
export interface IntervalNodeData {
  /** "Intervalo N seg." */
  label?: string;
  sec: number;
}
export const CONDITION_OPERATORS = ['==', '!=', 'contains', '>', '>=', '<', '<='] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];
/** Holds when the variable `key` compared by `condition` to `value` is true. */
export interface ConditionNodeData {
  key: string;
  condition: ConditionOperator;
  value: string;
}
export interface MenuOption {
  number: number;
  value: string;
}
export interface MenuNodeData {
  message: string;
  arrayOption: MenuOption[];
}
/** `url` is the stored name an upload answered. */
export interface ImgNodeData {
  url: string;
}
export interface AudioNodeData {
  url: string;
  /** Sent as a voice note (recorded) rather than an audio file. */
  record: boolean;
}
export interface VideoNodeData {
  url: string;
}
/** The share of runs that leave by `a`; the rest leave by `b`. 0 to 100 in steps of 10. */
export interface RandomizerNodeData {
  percent: number;
}
export const CONTENT_ELEMENT_TYPES = ['message', 'interval', 'img', 'audio', 'video'] as const;
export type ContentElementType = (typeof CONTENT_ELEMENT_TYPES)[number];
export interface ContentElement {
  /** The element's id, named by `seq`. */
  number: string;
  type: ContentElementType;
  /** Text for a message, seconds for an interval, the stored name for media. */
  value: string;
  /** The uploaded file's original name. */
  original?: string;
  record?: boolean;
}
export interface SingleBlockNodeData {
  /** Element ids in the order they are sent. */
  seq: string[];
  elements: ContentElement[];
}
export interface TicketNodeData {
  /** The queue the ticket is handed to. */
  data: { id: number; name: string };
}
export interface QuestionNodeData {
  typebotIntegration: { message: string; answerKey: string };
}
export interface TypebotNodeData {
  typebotIntegration: {
    name: string;
    urlN8N: string;
    typebotSlug: string;
    typebotExpires?: number;
    typebotDelayMessage?: number;
    typebotKeywordFinish?: string;
    typebotKeywordRestart?: string;
    typebotUnknownMessage?: string;
    typebotRestartMessage?: string;
  };
}
/**
 * The openai node: the AI plugin's `ai` service answers with these settings. `apiKey` (and `voiceKey`) are
 * typed in clear, stored sealed and answered masked (`••••••` and the last four characters); a masked key
 * saved unchanged keeps the stored one.
 */
export interface OpenAiNodeData {
  typebotIntegration: {
    name: string;
    prompt: string;
    apiKey: string;
    /** An OpenAI-compatible base URL (default OpenAI's), as a prompt has. */
    baseUrl?: string;
    /** The model (default the prompts' default). */
    model?: string;
    voice?: string;
    voiceKey?: string;
    voiceRegion?: string;
    maxTokens?: number;
    temperature?: number;
    maxMessages?: number;
    queueId?: number | null;
  };
}

export interface FlowNodeDataByType {
  start: StartNodeData;
  message: MessageNodeData;
  interval: IntervalNodeData;
  menu: MenuNodeData;
  img: ImgNodeData;
  audio: AudioNodeData;
  video: VideoNodeData;
  randomizer: RandomizerNodeData;
  singleBlock: SingleBlockNodeData;
  question: QuestionNodeData;
  ticket: TicketNodeData;
  typebot: TypebotNodeData;
  openai: OpenAiNodeData;
  condition: ConditionNodeData;
}

export type FlowNode = {
  [K in FlowNodeType]: { id: string; type: K; position: FlowPosition; data: FlowNodeDataByType[K] };
}[FlowNodeType];
export type FlowNodeOf<K extends FlowNodeType> = Extract<FlowNode, { type: K }>;

export interface FlowEdge {
  id?: string;
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
}

export interface FlowDocument {
  nodes: FlowNode[];
  connections: FlowEdge[];
}

/** Problems that make a flow unsaveable (`error`) or that the editor asks about before saving (`warning`). */
export const FLOW_PROBLEM_CODES = {
  notADocument: 'error',
  tooLarge: 'error',
  tooManyNodes: 'error',
  badNodeId: 'error',
  duplicateNodeId: 'error',
  unknownKind: 'error',
  badPosition: 'error',
  noStart: 'error',
  manyStarts: 'error',
  emptyMessage: 'error',
  intervalMissing: 'error',
  intervalTooLong: 'error',
  contentIntervalInvalid: 'error',
  contentMessageEmpty: 'error',
  contentMediaEmpty: 'error',
  contentSeqInvalid: 'error',
  mediaMissing: 'error',
  mediaTypeInvalid: 'error',
  menuOptionsInvalid: 'error',
  randomizerInvalid: 'error',
  conditionInvalid: 'error',
  queueRequired: 'error',
  questionMessageRequired: 'error',
  questionAnswerKeyInvalid: 'error',
  typebotNameInvalid: 'error',
  typebotUrlRequired: 'error',
  typebotSlugRequired: 'error',
  openaiFieldsRequired: 'error',
  openaiUnavailable: 'error',
  edgeInvalid: 'error',
  edgeUnknownNode: 'error',
  edgeUnknownHandle: 'error',
  manyWaysOut: 'error',
  noWayOut: 'warning',
  menuOptionLeadsNowhere: 'warning',
  variableNeverUsed: 'warning',
  unreachable: 'warning',
} as const;
export type FlowProblemCode = keyof typeof FLOW_PROBLEM_CODES;
export type FlowProblemSeverity = 'error' | 'warning';

export interface FlowProblem {
  /** The node (or, for an edge, its source node) at fault; null for the document as a whole. */
  nodeId: string | null;
  code: FlowProblemCode;
  severity: FlowProblemSeverity;
  /** The translation key of the explanation (`flowProblems.<code>`). */
  message: string;
  /** For a menu option: its number; for an edge: its index in `connections`. */
  detail?: number | string;
}

export interface CheckFlowOptions {
  /** Whether an AI service is there to run openai nodes (the server knows; the editor assumes yes). */
  openaiAvailable?: boolean;
}

/** A flow nodes' answers and the contact's fields, interpolated as `{{name}}` in texts. */
export type FlowVariables = Record<string, string>;

const VARIABLE_REFERENCE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,49})\s*\}\}/g;

/** `text` with every `{{variable}}` replaced by its value (an unknown variable stays as written). */
export function interpolate(text: string, variables: FlowVariables): string {
  return text.replace(VARIABLE_REFERENCE, (whole, name: string) =>
    Object.hasOwn(variables, name) ? (variables[name] ?? '') : whole,
  );
}

/** The variable names `text` refers to. */
export function referencedVariables(text: string): string[] {
  return Array.from(text.matchAll(VARIABLE_REFERENCE), (m) => m[1] as string);
}

/** The ways out of a node of `type`: handle names, or `null` for a node with a single way out. */
export function waysOut(node: Pick<FlowNode, 'type' | 'data'>): string[] | null {
  switch (node.type) {
    case 'menu':
      return (node.data as MenuNodeData).arrayOption.map((option) => `a${option.number}`);
    case 'randomizer':
    case 'condition':
      return ['a', 'b'];
    default:
      return null;
  }
}

/** Nodes that hand the conversation to someone else and so end the flow by design. */
const HAND_OFF_TYPES: ReadonlySet<FlowNodeType> = new Set(['ticket', 'typebot', 'openai']);
/** Nodes after which a flow going nowhere is a design mistake, not an end (they wait or branch). */
const NEEDS_WAY_OUT: ReadonlySet<FlowNodeType> = new Set(['start', 'interval', 'question', 'randomizer', 'condition']);

/**
 * The node a run goes to from `nodeId` leaving by `handle` (ignored for single-way nodes), or null when
 * the flow ends there.
 */
export function nextNodeId(document: FlowDocument, nodeId: string, handle?: string | null): string | null {
  for (const edge of document.connections) {
    if (edge.source !== nodeId) continue;
    if (handle == null || edge.sourceHandle === handle) return edge.target;
  }
  return null;
}

/** The start node of a flow (the first, if a broken document has several). */
export function startNode(document: FlowDocument): FlowNode | null {
  return document.nodes.find((node) => node.type === 'start') ?? null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string';
const isFilled = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * Everything wrong with a flow document: errors first, in document order. A document with no `error`
 * problem can be saved and run; warnings are for the editor to show before saving.
 */
export function checkFlow(document: unknown, options: CheckFlowOptions = {}): FlowProblem[] {
  const problems: FlowProblem[] = [];
  const add = (nodeId: string | null, code: FlowProblemCode, detail?: number | string) => {
    const problem: FlowProblem = { nodeId, code, severity: FLOW_PROBLEM_CODES[code], message: `flowProblems.${code}` };
    if (detail !== undefined) problem.detail = detail;
    problems.push(problem);
  };
  if (!isRecord(document) || !Array.isArray(document.nodes) || !Array.isArray(document.connections)) {
    add(null, 'notADocument');
    return problems;
  }
  let json: string;
  try {
    json = JSON.stringify(document);
  } catch {
    add(null, 'notADocument');
    return problems;
  }
  if (byteLength(json) > FLOW_DOCUMENT_MAX_BYTES) {
    add(null, 'tooLarge');
    return problems;
  }
  if (document.nodes.length > FLOW_MAX_NODES) {
    add(null, 'tooManyNodes');
    return problems;
  }

  const nodes = new Map<string, FlowNode>();
  const variablesAsked = new Map<string, string>();
  const textsUsed: string[] = [];
  const conditionKeys = new Set<string>();
  let starts = 0;
  for (const raw of document.nodes as unknown[]) {
    if (!isRecord(raw) || !isText(raw.id) || !FLOW_NODE_ID_PATTERN.test(raw.id)) {
      add(isRecord(raw) && isText(raw.id) ? raw.id.slice(0, 64) : null, 'badNodeId');
      continue;
    }
    const id = raw.id;
    if (nodes.has(id)) {
      add(id, 'duplicateNodeId');
      continue;
    }
    if (!isText(raw.type) || !(FLOW_NODE_TYPES as readonly string[]).includes(raw.type)) {
      add(id, 'unknownKind');
      continue;
    }
    if (!isRecord(raw.position) || !isFiniteNumber(raw.position.x) || !isFiniteNumber(raw.position.y)) {
      add(id, 'badPosition');
    }
    const data = isRecord(raw.data) ? raw.data : {};
    const type = raw.type as FlowNodeType;
    if (checkNodeData(id, type, data, add, options, textsUsed, conditionKeys, variablesAsked)) {
      nodes.set(id, raw as unknown as FlowNode);
    }
    if (type === 'start') starts += 1;
  }
  if (starts === 0) add(null, 'noStart');
  if (starts > 1) add(null, 'manyStarts');

  // edges: real nodes at both ends, a handle the source has, one edge per way out
  const leaving = new Map<string, Map<string, number>>();
  (document.connections as unknown[]).forEach((raw, index) => {
    if (!isRecord(raw) || !isText(raw.source) || !isText(raw.target)) {
      add(null, 'edgeInvalid', index);
      return;
    }
    const source = nodes.get(raw.source);
    if (!source || !nodes.has(raw.target)) {
      add(source ? raw.source : null, 'edgeUnknownNode', index);
      return;
    }
    const handles = waysOut(source);
    const handle = handles === null ? '' : isText(raw.sourceHandle) ? raw.sourceHandle : '';
    if (handles !== null && !handles.includes(handle)) {
      add(raw.source, 'edgeUnknownHandle', index);
      return;
    }
    const byHandle = leaving.get(raw.source) ?? new Map<string, number>();
    byHandle.set(handle, (byHandle.get(handle) ?? 0) + 1);
    leaving.set(raw.source, byHandle);
  });

  for (const [id, node] of nodes) {
    const byHandle = leaving.get(id);
    for (const [handle, count] of byHandle ?? []) if (count > 1) add(id, 'manyWaysOut', handle || undefined);
    const handles = waysOut(node);
    if (node.type === 'menu') {
      for (const option of node.data.arrayOption)
        if (!byHandle?.has(`a${option.number}`)) add(id, 'menuOptionLeadsNowhere', option.number);
    } else if (handles !== null) {
      if (!byHandle || handles.some((h) => !byHandle.has(h))) add(id, 'noWayOut');
    } else if (!byHandle && NEEDS_WAY_OUT.has(node.type) && !HAND_OFF_TYPES.has(node.type)) {
      add(id, 'noWayOut');
    }
  }

  // nodes the start never reaches never speak
  const start = [...nodes.values()].find((node) => node.type === 'start');
  if (start) {
    const reached = new Set<string>([start.id]);
    const queue = [start.id];
    const targets = new Map<string, string[]>();
    for (const edge of document.connections as FlowEdge[]) {
      if (!isRecord(edge) || !nodes.has(edge.source) || !nodes.has(edge.target)) continue;
      targets.set(edge.source, [...(targets.get(edge.source) ?? []), edge.target]);
    }
    while (queue.length > 0) {
      const current = queue.pop() as string;
      for (const next of targets.get(current) ?? []) {
        if (reached.has(next)) continue;
        reached.add(next);
        queue.push(next);
      }
    }
    for (const id of nodes.keys()) if (!reached.has(id)) add(id, 'unreachable');
  }

  // a question's answer is for something: a text that shows it, or a condition that tests it
  const referenced = new Set(textsUsed.flatMap(referencedVariables));
  for (const [variable, nodeId] of variablesAsked)
    if (!referenced.has(variable) && !conditionKeys.has(variable)) add(nodeId, 'variableNeverUsed');

  return problems.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
}

/** Checks one node's data; false when it is too broken for its edges to be checked against. */
function checkNodeData(
  id: string,
  type: FlowNodeType,
  data: Record<string, unknown>,
  add: (nodeId: string | null, code: FlowProblemCode, detail?: number | string) => void,
  options: CheckFlowOptions,
  textsUsed: string[],
  conditionKeys: Set<string>,
  variablesAsked: Map<string, string>,
): boolean {
  const inner = isRecord(data.typebotIntegration) ? data.typebotIntegration : {};
  const checkMedia = (kind: FlowMediaKind, value: unknown) => {
    if (!isFilled(value)) add(id, 'mediaMissing');
    else if (!(FLOW_MEDIA_LIMITS[kind].extensions as readonly string[]).includes(extensionOf(value))) add(id, 'mediaTypeInvalid');
  };
  switch (type) {
    case 'start':
      return true;
    case 'message':
      if (!isFilled(data.label)) add(id, 'emptyMessage');
      else textsUsed.push(data.label);
      return true;
    case 'interval':
      if (!isFiniteNumber(data.sec) || !Number.isInteger(data.sec) || data.sec < INTERVAL_MIN_SECONDS) add(id, 'intervalMissing');
      else if (data.sec > INTERVAL_MAX_SECONDS) add(id, 'intervalTooLong');
      return true;
    case 'menu': {
      const options = data.arrayOption;
      const valid =
        isFilled(data.message) &&
        Array.isArray(options) &&
        options.length > 0 &&
        options.every((option, index) => isRecord(option) && option.number === index + 1 && isFilled(option.value));
      if (!valid) {
        add(id, 'menuOptionsInvalid');
        return false;
      }
      textsUsed.push(data.message as string, ...(options as MenuOption[]).map((option) => option.value));
      return true;
    }
    case 'img':
    case 'video':
      checkMedia(type, data.url);
      return true;
    case 'audio':
      checkMedia('audio', data.url);
      return true;
    case 'randomizer':
      if (!isFiniteNumber(data.percent) || data.percent < 0 || data.percent > 100 || data.percent % RANDOMIZER_STEP !== 0)
        add(id, 'randomizerInvalid');
      return true;
    case 'condition':
      if (!isFilled(data.key) || !isText(data.value) || !(CONDITION_OPERATORS as readonly unknown[]).includes(data.condition))
        add(id, 'conditionInvalid');
      else {
        conditionKeys.add(data.key.trim());
        textsUsed.push(data.value);
      }
      return true;
    case 'singleBlock': {
      const elements = Array.isArray(data.elements) ? data.elements : null;
      const seq = Array.isArray(data.seq) ? data.seq : null;
      if (!elements || !seq || elements.length === 0) {
        add(id, 'contentSeqInvalid');
        return true;
      }
      const byNumber = new Map<string, Record<string, unknown>>();
      for (const element of elements) if (isRecord(element) && isText(element.number)) byNumber.set(element.number, element);
      if (
        byNumber.size !== elements.length ||
        seq.length !== elements.length ||
        !seq.every((number) => isText(number) && byNumber.has(number))
      ) {
        add(id, 'contentSeqInvalid');
        return true;
      }
      for (const element of byNumber.values()) {
        const value = element.value;
        switch (element.type) {
          case 'message':
            if (!isFilled(value)) add(id, 'contentMessageEmpty', element.number as string);
            else textsUsed.push(value);
            break;
          case 'interval': {
            const seconds = Number(value);
            if (!Number.isInteger(seconds) || seconds < INTERVAL_MIN_SECONDS || seconds > INTERVAL_MAX_SECONDS)
              add(id, 'contentIntervalInvalid', element.number as string);
            break;
          }
          case 'img':
          case 'audio':
          case 'video':
            if (!isFilled(value)) add(id, 'contentMediaEmpty', element.number as string);
            else if (!(FLOW_MEDIA_LIMITS[element.type].extensions as readonly string[]).includes(extensionOf(value)))
              add(id, 'mediaTypeInvalid', element.number as string);
            break;
          default:
            add(id, 'contentSeqInvalid', element.number as string);
        }
      }
      return true;
    }
    case 'ticket': {
      const queue = isRecord(data.data) ? data.data : {};
      if (!isFiniteNumber(queue.id) || !Number.isInteger(queue.id) || queue.id <= 0) add(id, 'queueRequired');
      return true;
    }
    case 'question':
      if (!isFilled(inner.message)) add(id, 'questionMessageRequired');
      else textsUsed.push(inner.message);
      if (!isText(inner.answerKey) || !VARIABLE_NAME_PATTERN.test(inner.answerKey)) add(id, 'questionAnswerKeyInvalid');
      else if (!variablesAsked.has(inner.answerKey)) variablesAsked.set(inner.answerKey, id);
      return true;
    case 'typebot': {
      const name = isText(inner.name) ? inner.name.trim() : '';
      if (name.length < TYPEBOT_NAME_MIN || name.length > TYPEBOT_NAME_MAX) add(id, 'typebotNameInvalid');
      if (!isFilled(inner.urlN8N)) add(id, 'typebotUrlRequired');
      if (!isFilled(inner.typebotSlug)) add(id, 'typebotSlugRequired');
      return true;
    }
    case 'openai':
      if (!isFilled(inner.name) || !isFilled(inner.apiKey) || !isFilled(inner.prompt)) add(id, 'openaiFieldsRequired');
      if (options.openaiAvailable === false) add(id, 'openaiUnavailable');
      else if (isFilled(inner.prompt)) textsUsed.push(inner.prompt);
      return true;
  }
}
