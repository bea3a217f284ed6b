import { type PluginDefinition, runInTenant } from '@balcao/plugin-sdk/server';
import { Campaign } from '../models/campaign';
import { ContactList, ContactListItem } from '../models/contact-list';

/**
 * The walkers' rows of company A: a contact list and one of its items, and an INATIVA campaign (editable)
 * on A's connection — each carrying the marker.
 */
export const seedCampaignsFixtures: NonNullable<NonNullable<PluginDefinition['seed']>['fixtures']> = async ({
  companyA,
  marker,
  seededA,
}) =>
  runInTenant({ companyId: companyA.id }, async () => {
    const list = await ContactList.query().insert({ name: `Lista ${marker}`, whatsappId: Number(seededA.whatsapp) || null });
    const item = await ContactListItem.query().insert({
      contactListId: list.id,
      name: `Contato ${marker}`,
      number: '5511912345678',
      email: `${marker.toLowerCase()}@fixture.test`,
    });
    const campaign = await Campaign.query().insert({
      name: `Campanha ${marker}`,
      status: 'INATIVA',
      message1: `Olá {nome} ${marker}`,
      contactListId: list.id,
      whatsappId: Number(seededA.whatsapp) || null,
      tagListId: Number(seededA.tag) || null,
    });
    return { contactList: list.id, contactListItem: item.id, campaign: campaign.id, tagList: seededA.tag ?? list.id };
  });
