import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CampaignsKit, campaignsKit, multipartFile } from '../testing/kit';

/**
 * Contact sheets into a list (.xlsx streamed, .xls, .csv): rows added, updated and refused with their row
 * numbers and why; a file that can't be read — broken, with formulas, a huge cell, the wrong extension —
 * changes nothing.
 */
let kit: CampaignsKit;
beforeAll(async () => {
  kit = await campaignsKit();
});
afterAll(async () => {
  await kit?.close();
});

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function xlsx(rows: unknown[][], formula = false): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contatos');
  for (const row of rows) sheet.addRow(row);
  if (formula) sheet.getCell('B3').value = { formula: '1+1', result: 2 };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Uploads a file into a list and waits for the import's end; answers the import and the list's items. */
async function importInto(listId: number, file: { name: string; type: string; data: Buffer }) {
  const res = await kit.t.inject({
    method: 'POST',
    url: `/api/contact-lists/${listId}/upload`,
    token: kit.adminToken,
    ...multipartFile(file),
  });
  if (res.statusCode !== 202) return { status: res.statusCode, error: res.json().error as string, items: await items(listId) };
  let current = res.json();
  for (let i = 0; i < 300 && (current.status === 'queued' || current.status === 'running'); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    current = (await kit.api('GET', `/contact-lists/${listId}/import`)).body;
  }
  return { status: 202, import: current, items: await items(listId) };
}

async function items(listId: number) {
  return kit.knex('contactListItems').where({ contactListId: listId }).orderBy('number').select('name', 'number', 'email');
}

describe('importing a sheet', () => {
  it('adds and updates rows of an .xlsx, refusing bad ones with their row numbers', async () => {
    const listId = await kit.list(['5511900000001']);
    const data = await xlsx([
      ['Nome', 'Número', 'E-mail'],
      ['Ana', '(11) 90000-0001', 'ana@exemplo.com'],
      ['Bruno', 5511900000002, ''],
      ['', '5511900000003', ''],
      ['Carla', '123', ''],
      ['Duda', '+55 11 90000-0002', ''],
      ['Edu', '5511900000004', 'não é email'],
    ]);
    const result = await importInto(listId, { name: 'contatos.xlsx', type: XLSX_TYPE, data });
    expect(result.import).toMatchObject({ status: 'done', progress: 100, rows: 6, added: 1, updated: 1, refused: 4 });
    expect(result.import.refusedRows).toEqual([
      { row: 4, reason: 'missing_name' },
      { row: 5, reason: 'bad_number' },
      { row: 6, reason: 'duplicate' },
      { row: 7, reason: 'bad_email' },
    ]);
    expect(result.items).toEqual([
      { name: 'Ana', number: '5511900000001', email: 'ana@exemplo.com' },
      { name: 'Bruno', number: '5511900000002', email: null },
    ]);
  });

  it('reads a .csv written with semicolons and an .xls', async () => {
    const listId = await kit.list([]);
    const csv = Buffer.from(
      '\uFEFFnome;telefone;email\r\n"Souza; Maria";21 98888-7777;maria@exemplo.com\r\nJoão;5521988887776;\r\n',
    );
    const fromCsv = await importInto(listId, { name: 'lista.csv', type: 'text/csv', data: csv });
    expect(fromCsv.import).toMatchObject({ status: 'done', added: 2, refused: 0 });
    expect(fromCsv.items.map((item: { name: string }) => item.name)).toEqual(['João', 'Souza; Maria']);

    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      book,
      XLSX.utils.aoa_to_sheet([
        ['Nome', 'Numero'],
        ['Xavier', '5531977776666'],
      ]),
      'Plan1',
    );
    const xls = XLSX.write(book, { type: 'buffer', bookType: 'xls' }) as Buffer;
    const fromXls = await importInto(listId, { name: 'antiga.xls', type: 'application/vnd.ms-excel', data: xls });
    expect(fromXls.import).toMatchObject({ status: 'done', added: 1 });
  });

  it('refuses a broken file, formulas, a huge cell and a wrong extension, leaving the list as it was', async () => {
    const listId = await kit.list(['5511900000009']);
    const before = await items(listId);
    const broken = await importInto(listId, {
      name: 'x.xlsx',
      type: XLSX_TYPE,
      data: Buffer.from('PK\u0003\u0004 not really a zip'),
    });
    expect(broken.import).toMatchObject({ status: 'failed', error: 'ERR_IMPORT_UNREADABLE' });
    const notZip = await importInto(listId, { name: 'x.xlsx', type: XLSX_TYPE, data: Buffer.from('hello') });
    expect(notZip).toMatchObject({ status: 400, error: 'ERR_IMPORT_UNREADABLE' });
    const formulas = await importInto(listId, {
      name: 'f.xlsx',
      type: XLSX_TYPE,
      data: await xlsx(
        [
          ['Nome', 'Numero'],
          ['Ana', '5511900000010'],
          ['Bia', '5511900000011'],
        ],
        true,
      ),
    });
    expect(formulas.import).toMatchObject({ status: 'failed', error: 'ERR_IMPORT_FORMULAS' });
    const huge = await importInto(listId, {
      name: 'h.csv',
      type: 'text/csv',
      data: Buffer.from(`nome,numero\nAna,5511900000012\n${'x'.repeat(1_000_000)},5511900000013\n`),
    });
    expect(huge.import).toMatchObject({ status: 'failed', error: 'ERR_IMPORT_CELL_TOO_LONG' });
    const extension = await importInto(listId, { name: 'contatos.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4') });
    expect(extension).toMatchObject({ status: 415, error: 'ERR_IMPORT_FILE_TYPE' });
    expect(await items(listId)).toEqual(before);
    expect(await kit.knex('contactListImportRows').count({ n: '*' }).first()).toMatchObject({ n: 0 });
  });

  it('serves the example sheet, which imports as it is', async () => {
    const res = await kit.t.inject({ method: 'GET', url: '/api/contact-lists/example-sheet', token: kit.adminToken });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_TYPE);
    const listId = await kit.list([]);
    const result = await importInto(listId, { name: 'planilha-exemplo.xlsx', type: XLSX_TYPE, data: res.rawPayload });
    expect(result.import).toMatchObject({ status: 'done', added: 2, refused: 0 });
  });
});

describe('contact list items', () => {
  it('normalises numbers, refuses a repeated one, and lets only holders of contacts-page:deleteContact delete', async () => {
    const listId = await kit.list([]);
    const created = await kit.api('POST', '/contact-list-items', {
      name: 'Maria',
      number: '(11) 98765-4321',
      email: '',
      contactListId: listId,
    });
    expect(created.body).toMatchObject({ number: '5511987654321', isWhatsappValid: null, contactListId: listId });
    const again = await kit.api('POST', '/contact-list-items', {
      name: 'Outra',
      number: '+55 11 98765-4321',
      contactListId: listId,
    });
    expect(again).toMatchObject({ status: 409, body: { error: 'ERR_CONTACT_LIST_ITEM_EXISTS' } });
    const bad = await kit.api('POST', '/contact-list-items', {
      name: 'Ruim',
      number: '12345678901234567',
      contactListId: listId,
    });
    expect(bad).toMatchObject({ status: 400, body: { error: 'ERR_INVALID_NUMBER' } });
    const asUser = await kit.api('DELETE', `/contact-list-items/${created.body.id}`, undefined, kit.userToken);
    expect(asUser.status).toBe(403);
    const asAdmin = await kit.api('DELETE', `/contact-list-items/${created.body.id}`);
    expect(asAdmin.status).toBe(204);
  });

  it('asks the list connection whether numbers are on the channel; unknown stays null', async () => {
    const listId = await kit.list([]);
    kit.provider.unknownNumbers.add('5511955550002');
    for (const number of ['5511955550001', '5511955550002']) {
      await kit.api('POST', '/contact-list-items', { name: `N ${number}`, number, contactListId: listId });
    }
    await expect
      .poll(
        async () =>
          (await kit.api('GET', `/contact-list-items?contactListId=${listId}`)).body.contacts.map(
            (c: { isWhatsappValid: boolean | null }) => c.isWhatsappValid,
          ),
        { timeout: 10_000 },
      )
      .toEqual([true, false]);
  });
});
