import { AppError } from '@balcao/plugin-sdk/server';
import type { FlowbuilderContext } from '../config';
import { FlowBuilder, FlowCampaign } from '../models';
import { emitToAdmins } from './live';

export function campaignJson(row: FlowCampaign) {
  return {
    id: row.id,
    name: row.name,
    flowId: row.flowId,
    whatsappId: row.whatsappId,
    phrase: row.phrase,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export interface FlowCampaignInput {
  name: string;
  flowId: number;
  whatsappId: number;
  phrase: string;
  status?: boolean;
}

/**
 * The rules of a phrase campaign (docs/product/automation.md#validation-rules): name, flow, connection
 * and phrase present — the flow and the connection the company's own.
 */
async function columnsOf(ctx: FlowbuilderContext, companyId: number, input: FlowCampaignInput) {
  const name = input.name.trim();
  const phrase = input.phrase.trim();
  if (name === '' || phrase === '') throw new AppError('ERR_FLOW_CAMPAIGN_FIELDS_REQUIRED');
  if (!(await FlowBuilder.query().findById(input.flowId))) throw new AppError('ERR_NO_FLOW_FOUND');
  const connection = await ctx.db.knex('whatsapps').where({ id: input.whatsappId, companyId }).first('id');
  if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
  return {
    name,
    phrase,
    flowId: input.flowId,
    whatsappId: input.whatsappId,
    ...(input.status === undefined ? {} : { status: input.status }),
  };
}

export async function listCampaigns() {
  const rows = await FlowCampaign.query().orderBy('name').orderBy('id');
  return { flow: rows.map(campaignJson) };
}

export async function loadCampaign(id: number): Promise<FlowCampaign> {
  const row = await FlowCampaign.query().findById(id);
  if (!row) throw new AppError('ERR_NO_FLOW_CAMPAIGN_FOUND');
  return row;
}

export async function createCampaign(ctx: FlowbuilderContext, companyId: number, input: FlowCampaignInput) {
  // a new campaign is active unless said otherwise (docs/product/automation.md#states-and-transitions)
  const row = await FlowCampaign.query().insertAndFetch({ status: true, ...(await columnsOf(ctx, companyId, input)) });
  const json = campaignJson(row);
  await emitToAdmins(ctx, companyId, 'flowCampaign', { action: 'create', record: json });
  return json;
}

export async function updateCampaign(ctx: FlowbuilderContext, companyId: number, id: number, input: FlowCampaignInput) {
  await loadCampaign(id);
  const row = await FlowCampaign.query().patchAndFetchById(id, await columnsOf(ctx, companyId, input));
  const json = campaignJson(row);
  await emitToAdmins(ctx, companyId, 'flowCampaign', { action: 'update', record: json });
  return json;
}

export async function deleteCampaign(ctx: FlowbuilderContext, companyId: number, id: number): Promise<void> {
  await loadCampaign(id);
  await FlowCampaign.query().deleteById(id);
  await emitToAdmins(ctx, companyId, 'flowCampaign', { action: 'delete', id });
}
