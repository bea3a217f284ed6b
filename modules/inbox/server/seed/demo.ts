import type { PluginContext, PluginDefinition } from '@balcao/plugin-sdk/server';
import type { MediaType, TicketStatus } from '../../shared/types';
import { demoDocument, demoPicture, demoVoiceNote } from './demo-media';

type DemoSeed = NonNullable<NonNullable<PluginDefinition['seed']>['demo']>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface DemoMessage {
  /** Minutes before now. */
  ago: number;
  fromMe?: boolean;
  body: string;
  media?: { type: MediaType; file: 'picture' | 'voice' | 'document'; name: string };
  isPrivate?: boolean;
  ack?: number;
}

interface DemoTicket {
  contact: string;
  status: TicketStatus;
  queue: string | null;
  user: 'admin' | 'agent' | null;
  unread?: number;
  rating?: number;
  tags?: string[];
  note?: string;
  messages: DemoMessage[];
}

const QUEUES = [
  { name: 'Vendas', color: '#2E7D32', orderQueue: 1 },
  { name: 'Suporte', color: '#1565C0', orderQueue: 2 },
  { name: 'Financeiro', color: '#EF6C00', orderQueue: 3 },
];

const TAGS = [
  { name: 'VIP', color: '#F59E0B', kanban: 0 },
  { name: 'Novo cliente', color: '#10B981', kanban: 0 },
  { name: 'Reclamação', color: '#EF4444', kanban: 0 },
  { name: 'Em negociação', color: '#8B5CF6', kanban: 1 },
  { name: 'Proposta enviada', color: '#0EA5E9', kanban: 1 },
];

const CONTACTS = [
  { name: 'Maria Silva', number: '5511987654321', email: 'maria.silva@example.com', extra: { Empresa: 'Silva Doces' } },
  { name: 'João Pereira', number: '5521998765432', email: null, extra: { CPF: '123.456.789-09' } },
  { name: 'Carla Souza', number: '5531987001122', email: 'carla@example.com', extra: {} },
  { name: 'Pedro Santos', number: '5541991234567', email: null, extra: { Empresa: 'Santos Transportes' } },
  { name: 'Fernanda Lima', number: '5551988776655', email: 'fernanda.lima@example.com', extra: {} },
  { name: 'Lucas Oliveira', number: '5561999887766', email: null, extra: {} },
  { name: 'Beatriz Costa', number: '5571987456123', email: 'bia.costa@example.com', extra: {} },
  { name: 'Rafael Almeida', number: '5581996321478', email: null, extra: {} },
  { name: 'Juliana Rocha', number: '5585991472583', email: 'juliana@example.com', extra: {} },
  { name: 'Thiago Martins', number: '5511976543210', email: null, extra: {} },
  { name: 'Camila Ferreira', number: '5519988552211', email: null, extra: {} },
  { name: 'Clientes VIP', number: '120363025246125486', email: null, extra: {}, isGroup: true },
];

const TICKETS: DemoTicket[] = [
  {
    contact: 'Maria Silva',
    status: 'open',
    queue: 'Vendas',
    user: 'agent',
    tags: ['VIP', 'Em negociação'],
    note: 'Cliente pediu desconto para pedidos acima de 50 unidades.',
    messages: [
      { ago: 26 * 60, body: 'Boa tarde! Vocês ainda têm o kit de presentes de fim de ano?' },
      { ago: 26 * 60 - 3, fromMe: true, body: 'Boa tarde, Maria! Temos sim. Quantas unidades você precisa?', ack: 5 },
      { ago: 26 * 60 - 5, body: 'Umas 60. Consegue um preço melhor?' },
      {
        ago: 40,
        fromMe: true,
        body: 'Segue a foto do kit completo:',
        media: { type: 'image', file: 'picture', name: 'kit-presentes.png' },
        ack: 4,
      },
      { ago: 35, body: 'Lindo! Pode me mandar a proposta?' },
      { ago: 30, fromMe: true, body: 'Proposta com 12% de desconto a caminho.', isPrivate: true },
      { ago: 12, fromMe: true, body: 'Enviei a proposta por e-mail. Qualquer dúvida, estou aqui!', ack: 2 },
    ],
  },
  {
    contact: 'João Pereira',
    status: 'pending',
    queue: 'Suporte',
    user: null,
    unread: 3,
    tags: ['Reclamação'],
    messages: [
      { ago: 9, body: 'Olá, meu pedido 4521 ainda não chegou.' },
      { ago: 8, body: 'Já faz 10 dias.' },
      { ago: 7, body: 'Segue o áudio explicando:', media: { type: 'audio', file: 'voice', name: 'audio-joao.wav' } },
    ],
  },
  {
    contact: 'Carla Souza',
    status: 'pending',
    queue: null,
    user: null,
    unread: 1,
    tags: ['Novo cliente'],
    messages: [{ ago: 4, body: 'Oi! Gostaria de saber os horários de atendimento.' }],
  },
  {
    contact: 'Pedro Santos',
    status: 'open',
    queue: 'Financeiro',
    user: 'admin',
    note: 'Boleto reemitido com nova data de vencimento.',
    messages: [
      { ago: 3 * 24 * 60, body: 'Preciso da segunda via do boleto de novembro.' },
      {
        ago: 3 * 24 * 60 - 10,
        fromMe: true,
        body: 'Claro, Pedro. Segue a segunda via:',
        media: { type: 'application', file: 'document', name: 'boleto-novembro.pdf' },
        ack: 5,
      },
      { ago: 90, body: 'Obrigado! Consigo pagar até sexta?' },
      { ago: 85, fromMe: true, body: 'Consegue sim, o vencimento foi prorrogado.', ack: 3 },
    ],
  },
  {
    contact: 'Fernanda Lima',
    status: 'closed',
    queue: 'Vendas',
    user: 'agent',
    rating: 10,
    messages: [
      { ago: 2 * 24 * 60, body: 'Recebi meu pedido, tudo perfeito!' },
      { ago: 2 * 24 * 60 - 2, fromMe: true, body: 'Que ótimo, Fernanda! Obrigado pela preferência.', ack: 5 },
    ],
  },
  {
    contact: 'Lucas Oliveira',
    status: 'closed',
    queue: 'Suporte',
    user: 'admin',
    rating: 6,
    messages: [
      { ago: 5 * 24 * 60, body: 'O aplicativo está travando na tela de login.' },
      { ago: 5 * 24 * 60 - 15, fromMe: true, body: 'Atualize para a versão 2.3, por favor. O problema foi corrigido.', ack: 5 },
      { ago: 5 * 24 * 60 - 30, body: 'Funcionou, valeu.' },
    ],
  },
  {
    contact: 'Clientes VIP',
    status: 'group',
    queue: 'Vendas',
    user: 'agent',
    unread: 2,
    messages: [
      { ago: 60, body: 'Bom dia, pessoal! Alguma novidade para a Black Friday?' },
      { ago: 55, fromMe: true, body: 'Bom dia! Amanhã divulgamos as ofertas exclusivas do grupo.', ack: 2 },
      { ago: 20, body: 'Vou esperar então 😄' },
    ],
  },
  {
    contact: 'Beatriz Costa',
    status: 'open',
    queue: 'Suporte',
    user: 'agent',
    unread: 1,
    messages: [
      { ago: 50, body: 'Como faço para trocar o endereço de entrega?' },
      { ago: 48, fromMe: true, body: 'Você pode alterar em Minha conta → Endereços, ou me passar o novo aqui.', ack: 4 },
      { ago: 15, body: 'Rua das Flores, 120 — Salvador' },
    ],
  },
  {
    contact: 'Rafael Almeida',
    status: 'pending',
    queue: 'Vendas',
    user: null,
    unread: 2,
    messages: [
      { ago: 25, body: 'Vocês entregam em Recife?' },
      { ago: 24, body: 'E qual o prazo?' },
    ],
  },
  {
    contact: 'Juliana Rocha',
    status: 'closed',
    queue: 'Financeiro',
    user: 'admin',
    messages: [
      { ago: 7 * 24 * 60, body: 'Quero cancelar minha assinatura.' },
      { ago: 7 * 24 * 60 - 20, fromMe: true, body: 'Assinatura cancelada, Juliana. Sentiremos sua falta!', ack: 5 },
    ],
  },
  {
    contact: 'Thiago Martins',
    status: 'nps',
    queue: 'Suporte',
    user: 'agent',
    messages: [
      { ago: 130, body: 'Resolvido, obrigado!' },
      { ago: 128, fromMe: true, body: 'De 0 a 10, quanto você recomendaria nosso atendimento?', ack: 3 },
    ],
  },
  {
    contact: 'Camila Ferreira',
    status: 'lgpd',
    queue: null,
    user: null,
    messages: [
      { ago: 6, body: 'Oi' },
      {
        ago: 6,
        fromMe: true,
        body: 'Para continuar, precisamos do seu consentimento para tratar seus dados (LGPD). Responda 1 para aceitar ou 2 para recusar.',
        ack: 2,
      },
    ],
  },
];

const FILES = {
  picture: () => demoPicture(),
  voice: () => demoVoiceNote(),
  document: () =>
    demoDocument(['Acme Ltda - Segunda via de boleto', 'Cliente: Pedro Santos', 'Valor: R$ 349,90', 'Vencimento: sexta-feira']),
};

/**
 * A lived-in inbox for Acme (`npm start`): queues with the demo users in them, tags and kanban lanes,
 * contacts with extra fields, tickets in every status and queue, conversations over several days with
 * a picture, a voice note, a document, private notes, ratings and notes. Runs once: a company that
 * already has contacts is left alone.
 */
export const seedInboxDemo: DemoSeed = async (ctx: PluginContext, demo) => {
  const companyId = demo.companies.acme;
  if (!companyId) return;
  const { knex } = ctx.db;
  const existing = await knex('contacts').where({ companyId }).first('id');
  if (existing) return;

  const storedFiles = new Map<string, string>();
  for (const ticket of TICKETS) {
    for (const message of ticket.messages) {
      if (!message.media || storedFiles.has(message.media.name)) continue;
      const key = `media/demo/${message.media.name}`;
      await ctx.storage.put(companyId, key, FILES[message.media.file]());
      storedFiles.set(message.media.name, key);
    }
  }

  const users = { admin: demo.users.acmeAdmin, agent: demo.users.acmeAgent };
  await knex.transaction(async (trx) => {
    const queueRows: Array<{ id: number; name: string }> = await trx('queues')
      .insert(QUEUES.map((queue) => ({ ...queue, companyId })))
      .returning(['id', 'name']);
    const queueId = new Map(queueRows.map((row) => [row.name, row.id]));
    await trx('userQueues').insert([
      ...queueRows.map((queue) => ({ companyId, userId: users.admin, queueId: queue.id })),
      { companyId, userId: users.agent, queueId: queueId.get('Vendas') },
      { companyId, userId: users.agent, queueId: queueId.get('Suporte') },
    ]);
    const tagRows: Array<{ id: number; name: string }> = await trx('tags')
      .insert(TAGS.map((tag) => ({ ...tag, companyId })))
      .returning(['id', 'name']);
    const tagId = new Map(tagRows.map((row) => [row.name, row.id]));

    const contactRows: Array<{ id: number; name: string }> = await trx('contacts')
      .insert(
        CONTACTS.map((contact) => ({
          companyId,
          name: contact.name,
          number: contact.number,
          email: contact.email,
          isGroup: contact.isGroup ?? false,
          channel: 'whatsapp',
        })),
      )
      .returning(['id', 'name']);
    const contactId = new Map(contactRows.map((row) => [row.name, row.id]));
    await trx('contactIdentities').insert(
      CONTACTS.map((contact) => ({
        companyId,
        contactId: contactId.get(contact.name),
        channel: 'whatsapp',
        identifier: `${contact.number}@${contact.isGroup ? 'g.us' : 's.whatsapp.net'}`,
      })),
    );
    const extra = CONTACTS.flatMap((contact) =>
      Object.entries(contact.extra).map(([name, value]) => ({ companyId, contactId: contactId.get(contact.name), name, value })),
    );
    if (extra.length > 0) await trx('contactCustomFields').insert(extra);

    const now = Date.now();
    let channelId = 0;
    for (const ticket of TICKETS) {
      const contact = contactId.get(ticket.contact) as number;
      const last = ticket.messages[ticket.messages.length - 1] as DemoMessage;
      const first = ticket.messages[0] as DemoMessage;
      const [row] = (await trx('tickets')
        .insert({
          companyId,
          contactId: contact,
          status: ticket.status,
          queueId: ticket.queue ? queueId.get(ticket.queue) : null,
          userId: ticket.user ? users[ticket.user] : null,
          channel: 'whatsapp',
          isGroup: ticket.status === 'group',
          unreadMessages: ticket.unread ?? 0,
          lastMessage: last.body,
          closedAt: ticket.status === 'closed' ? new Date(now - last.ago * MINUTE) : null,
          createdAt: new Date(now - first.ago * MINUTE),
          updatedAt: new Date(now - last.ago * MINUTE),
        })
        .returning(['id'])) as Array<{ id: number }>;
      const ticketId = (row as { id: number }).id;

      await trx('messages').insert(
        ticket.messages.map((message) => {
          channelId += 1;
          const at = new Date(now - message.ago * MINUTE);
          return {
            companyId,
            ticketId,
            contactId: contact,
            userId: message.fromMe && ticket.user ? users[ticket.user] : null,
            queueId: ticket.queue ? queueId.get(ticket.queue) : null,
            channelMessageId: message.isPrivate ? null : `DEMO${String(channelId).padStart(6, '0')}`,
            body: message.body,
            fromMe: message.fromMe ?? false,
            ack: message.fromMe ? (message.ack ?? 0) : 0,
            read: !(message.fromMe ?? false) && (ticket.unread ?? 0) === 0,
            mediaType: message.media?.type ?? 'chat',
            mediaPath: message.media ? storedFiles.get(message.media.name) : null,
            mediaName: message.media?.name ?? null,
            isPrivate: message.isPrivate ?? false,
            sendStatus: 'sent',
            createdAt: at,
            updatedAt: at,
          };
        }),
      );

      const logs: Array<{ type: string; userId: number | null; at: number }> = [{ type: 'create', userId: null, at: first.ago }];
      if (ticket.user) logs.push({ type: 'open', userId: users[ticket.user] ?? null, at: first.ago - 1 });
      if (ticket.status === 'closed')
        logs.push({ type: 'closed', userId: ticket.user ? (users[ticket.user] ?? null) : null, at: last.ago });
      await trx('ticketLogs').insert(
        logs.map((log) => ({
          companyId,
          ticketId,
          type: log.type,
          userId: log.userId,
          queueId: ticket.queue ? queueId.get(ticket.queue) : null,
          createdAt: new Date(now - Math.max(0, log.at) * MINUTE),
        })),
      );

      for (const tag of ticket.tags ?? []) {
        const id = tagId.get(tag) as number;
        const kanban = TAGS.find((candidate) => candidate.name === tag)?.kanban === 1;
        if (kanban) await trx('ticketTags').insert({ companyId, ticketId, tagId: id });
        else
          await trx('contactTags')
            .insert({ companyId, contactId: contact, tagId: id })
            .onConflict(['contactId', 'tagId'])
            .ignore();
      }
      if (ticket.rating) {
        await trx('ticketRatings').insert({
          companyId,
          ticketId,
          userId: ticket.user ? users[ticket.user] : null,
          rate: ticket.rating,
        });
      }
      if (ticket.note) {
        await trx('ticketNotes').insert({
          companyId,
          ticketId,
          contactId: contact,
          userId: ticket.user ? users[ticket.user] : null,
          note: ticket.note,
          createdAt: new Date(now - HOUR),
          updatedAt: new Date(now - HOUR),
        });
      }
    }

    await trx('quickMessages').insert([
      {
        companyId,
        userId: users.admin,
        shortcode: 'bomdia',
        message: 'Bom dia, {{name}}! Como posso ajudar?',
        geral: true,
        visao: true,
      },
      {
        companyId,
        userId: users.admin,
        shortcode: 'horario',
        message: 'Nosso atendimento funciona de segunda a sexta, das 8h às 18h, e aos sábados das 9h às 13h.',
        geral: true,
        visao: true,
      },
      {
        companyId,
        userId: users.admin,
        shortcode: 'pix',
        message: 'Nossa chave Pix é o CNPJ 12.345.678/0001-90 (Acme Ltda).',
        geral: true,
        visao: true,
      },
      {
        companyId,
        userId: users.agent,
        shortcode: 'obrigado',
        message: 'Obrigado pelo contato! Qualquer dúvida, é só chamar. 😊',
        geral: false,
        visao: true,
      },
    ]);
  });
};
