/**
 * The company's LGPD duties in a real browser: an admin downloads a contact's data and erases it from the
 * ticket's contact drawer, then sets the retention in Settings. Texts are asserted in Portuguese, the default.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './build-once';

let t: TestApp;
let baseUrl: string;
let browser: Browser;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  t = await createTestApp({ config: { hostDist: path.join(REPO_ROOT, 'host', 'dist') } });
  baseUrl = await t.listen();
  browser = await launchBrowser();
}, 120_000);
afterEach(closeOpenedPages(opened, 'privacy'));
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function adminPage() {
  const admin = await openPage(browser, baseUrl);
  opened.push(admin);
  await logInThroughUi(admin.page, baseUrl, 'admin@acme.test');
  return admin;
}

describe('LGPD duties from the screens', () => {
  it("exports and then erases a contact's data from the ticket's contact drawer", async () => {
    const knex = t.balcao.core.knex;
    const companyId = t.demo.companies.acme;
    const [contact] = await knex('contacts').insert({ companyId, name: 'Joana Prado', number: '5511966554433' }).returning('id');
    const [ticket] = await knex('tickets')
      .insert({
        companyId,
        contactId: contact.id,
        status: 'closed',
        userId: t.demo.users.acmeAdmin,
        lastMessage: 'Meu CPF segue',
      })
      .returning(['id', 'uuid']);
    const key = `media/e2e/${ticket.id}-rg.pdf`;
    await t.balcao.core.storage.put(companyId, key, Buffer.from('%PDF rg da Joana'));
    await knex('messages').insert([
      { companyId, ticketId: ticket.id, contactId: contact.id, body: 'Meu CPF segue' },
      {
        companyId,
        ticketId: ticket.id,
        contactId: contact.id,
        body: '',
        mediaType: 'application',
        mediaPath: key,
        mediaName: 'rg.pdf',
      },
    ]);

    const { page, pageErrors } = await adminPage();
    await page.goto(`${baseUrl}/tickets/${ticket.uuid}`);
    await page.getByRole('button', { name: 'Dados do contato' }).first().click();
    await page.getByText('Privacidade (LGPD)').waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exportar dados' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`contact-${contact.id}.zip`);
    const zip = await readFile((await download.path()) as string);
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    expect(zip.includes(Buffer.from('%PDF rg da Joana'))).toBe(true);

    await page.getByRole('button', { name: 'Apagar dados' }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: 'Apagar os dados do contato' });
    const confirm = dialog.getByRole('button', { name: 'Apagar dados' });
    await dialog.getByLabel('Nome do contato').fill('Joana');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Nome do contato').fill('Joana Prado');
    await confirm.click();
    await page.getByText('Dados apagados: 2 mensagens e 1 arquivos.').waitFor();
    expect(await knex('contacts').where({ id: contact.id }).first('name', 'number')).toEqual({
      name: `#${contact.id}`,
      number: null,
    });
    expect(await t.balcao.core.storage.stat(companyId, key)).toBeNull();
    expect(pageErrors).toEqual([]);
  });

  it('sets the retention in Settings and shows the privacy log', async () => {
    const { page, pageErrors } = await adminPage();
    await page.goto(`${baseUrl}/settings`);
    await page.getByRole('tab', { name: 'Privacidade (LGPD)' }).click();
    await page.getByText('Manter para sempre').waitFor();
    await page.getByLabel('Retenção de mensagens').click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'Apagar após um prazo' }).click();
    await page.getByText('6 meses').click();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Retenção salva.').waitFor();
    expect(await t.balcao.core.knex('privacyRetention').where({ companyId: t.demo.companies.acme }).first('months')).toEqual({
      months: 6,
    });
    // the previous test's export and erasure, newest first
    await page.getByText(/apagados: 2 mensagens, 1 arquivos/).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
