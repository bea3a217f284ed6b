import { type PluginDefinition, runInTenant } from '@balcao/plugin-sdk/server';
import { FileList, FileOption } from '../models';

/** The walkers' row of company A: a file list with one option, carrying the marker. */
export const seedFilesFixtures: NonNullable<NonNullable<PluginDefinition['seed']>['fixtures']> = async ({ companyA, marker }) =>
  runInTenant({ companyId: companyA.id }, async () => {
    const list = await FileList.query().insert({ name: `Arquivos ${marker}`, message: `Segue ${marker}` });
    const option = await FileOption.query().insert({ fileId: list.id, name: `Opção ${marker}`, orderOption: 0 });
    return { fileList: list.id, fileOption: option.id };
  });
