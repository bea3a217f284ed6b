import type { FlowDocumentConnection, FlowDocumentNode } from './flows/model';

/** The five kinds of queue integration (docs/product/automation.md#constants-and-limits). */
export const INTEGRATION_TYPES = ['dialogflow', 'n8n', 'webhook', 'typebot', 'flowbuilder'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

/** The DialogFlow languages with their labels as the product shows them. */
export const DIALOGFLOW_LANGUAGES = [
  { value: 'pt-BR', label: 'Portugues' },
  { value: 'en', label: 'Inglês' },
  { value: 'es', label: 'Español' },
] as const;

export interface QueueIntegration {
  id: number;
  type: IntegrationType;
  name: string;
  projectName: string;
  jsonContent: string;
  hasJsonContent: boolean;
  language: string;
  urlN8N: string;
  typebotDelayMessage: number;
  typebotExpires: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotRestartMessage: string;
  typebotSlug: string;
  typebotUnknownMessage: string;
  /** The flow a `flowbuilder` integration starts (null for the other types). */
  flowId: number | null;
}

export type IntegrationBody = Omit<QueueIntegration, 'id' | 'hasJsonContent'>;

export interface FlowCampaign {
  id: number;
  name: string;
  flowId: number;
  whatsappId: number | null;
  phrase: string;
  status: boolean;
}

export interface FlowCampaignBody {
  name: string;
  flowId: number;
  whatsappId: number;
  phrase: string;
  status: boolean;
}

export interface Connection {
  id: number;
  name: string;
  status: string;
}

export interface Flow {
  id: number;
  name: string;
  active?: boolean;
}

/** `GET /flowbuilder/flow/{id}`: the flow with its document (null until first saved). */
export interface FlowWithDocument extends Flow {
  flow: { nodes: FlowDocumentNode[]; connections: FlowDocumentConnection[] } | null;
  /**
   * Whether the company's flows may hold an openai node (the server's answer beside the flow: the plan's
   * useOpenAi and the AI plugin's `ai` service, what it checks on save too).
   */
  openaiAvailable: boolean;
}

/** One step of a ticket's run: the node reached, when, and the variables at that moment. */
export interface FlowRunStep {
  nodeId: string;
  at: string;
  variables: Record<string, unknown>;
}

/** `GET /flowbuilder/runs/{ticketId}`: the path one ticket took through its flow. */
export interface FlowRun {
  /** Null when the ticket never went through a flow. */
  flowId: number | null;
  steps: FlowRunStep[];
}

export interface QueueChoice {
  id: number;
  name: string;
  color?: string;
}
