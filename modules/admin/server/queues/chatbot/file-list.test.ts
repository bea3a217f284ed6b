import { beforeAll, describe, expect, it } from 'vitest';
import { multipart, PNG } from '../../platform/testing/multipart';
import { contact, knex, queue, sentFiles, t, useChatbotApp } from '../testing/chatbot';

/**
 * The chatbot sends file lists (docs/product/administration.md "Chatbot and file lists"): the lists are
 * made through the files module's routes, the files leave through a loopback channel driver that reads
 * them from storage, and a list of another company is refused when an option or a queue names it.
 */
useChatbotApp();

interface ListJson {
  id: number;
  options: Array<{ id: number; name: string; path: string | null }>;
}

let token = '';
let listId = 0;

async function makeList(sessionToken: string, name: string): Promise<ListJson> {
  const created = await t.inject({
    method: 'POST',
    url: '/api/files',
    token: sessionToken,
    payload: { name, message: 'Segue o nosso catálogo:', options: [{ name: 'Foto da loja' }, { name: 'Sem arquivo' }] },
  });
  expect(created.statusCode).toBe(200);
  const list = created.json() as ListJson;
  const uploaded = await t.inject({
    method: 'POST',
    url: `/api/files/uploadList/${list.id}`,
    token: sessionToken,
    ...multipart({ id: String(list.options[0]?.id) }, { field: 'files', name: 'loja.png', content: PNG, type: 'image/png' }),
  });
  expect(uploaded.statusCode).toBe(200);
  return uploaded.json() as ListJson;
}

async function waitForFiles(count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (sentFiles.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

beforeAll(async () => {
  token = (await t.login('admin@acme.test')).token;
  listId = (await makeList(token, `Catálogo ${Date.now()}`)).id;
});

describe('file lists in the chatbot', () => {
  it('sends the list of a file option: its message, then each uploaded file with its caption, through the channel', async () => {
    await queue('Vendas', { orderQueue: 1 }, [
      { name: 'Catálogo', greetingMessage: 'Um momento.', queueType: 'file', optFileId: listId },
      { name: 'Outra coisa', greetingMessage: 'Certo.' },
    ]);
    await queue('Suporte', { orderQueue: 2 });
    const ana = contact();
    await ana.say('Oi');
    await ana.say('1');
    sentFiles.length = 0;
    expect(await ana.say('1')).toEqual(['Um momento.', 'Segue o nosso catálogo:', 'Foto da loja']);
    const file = await knex()('messages').where({ ticketId: ana.ticketId, fromMe: true, body: 'Foto da loja' }).first();
    expect(file).toMatchObject({ mediaType: 'image', mediaName: 'loja.png' });
    expect(file.mediaPath).toMatch(/^files\//);
    await waitForFiles(1);
    expect(sentFiles).toEqual([{ fileName: 'loja.png', bytes: PNG }]);
    // the bot is done: the contact talks to the queue's agents
    expect(await ana.say('2')).toEqual([]);
  });

  it("sends a queue's list when the bot brings a ticket into it, after the queue's greeting", async () => {
    await queue('Vendas', { orderQueue: 1, fileListId: listId });
    await queue('Suporte', { orderQueue: 2 });
    const bruno = contact();
    await bruno.say('Oi');
    sentFiles.length = 0;
    expect(await bruno.say('1')).toEqual(['Fila Vendas', 'Segue o nosso catálogo:', 'Foto da loja']);
    await waitForFiles(1);
    expect(sentFiles.map((sent) => sent.fileName)).toEqual(['loja.png']);
  });

  it('refuses an option or a queue naming a file list of another company', async () => {
    const lite = await t.login('admin@lite.test');
    const foreign = await makeList(lite.token, 'Lista da Lite');
    const sales = await queue('Vendas', { orderQueue: 1 });
    const option = await t.inject({
      method: 'POST',
      url: '/api/chatbot',
      token,
      payload: { queueId: sales, name: 'Arquivos', greetingMessage: 'x', queueType: 'file', optFileId: foreign.id },
    });
    expect(option.statusCode).toBe(400);
    expect(option.json()).toEqual({ error: 'ERR_FILE_LIST_REQUIRED' });
    const queueEdit = await t.inject({
      method: 'PUT',
      url: `/api/queue/${sales}`,
      token,
      payload: { name: 'Vendas', color: '#123456', fileListId: foreign.id },
    });
    expect(queueEdit.statusCode).toBe(400);
    expect(queueEdit.json()).toEqual({ error: 'ERR_FILE_LIST_REQUIRED' });
    // Acme's own list is accepted
    const own = await t.inject({
      method: 'PUT',
      url: `/api/queue/${sales}`,
      token,
      payload: { name: 'Vendas', color: '#123456', fileListId: listId },
    });
    expect(own.statusCode).toBe(200);
    expect((await knex()('queues').where({ id: sales }).first()).fileListId).toBe(listId);
  });
});
