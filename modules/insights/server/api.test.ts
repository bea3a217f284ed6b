/**
 * The insights' routes as users call them: who may call what (the server refuses, not only the menu), bad
 * ranges and filters, the report's filters, paging and sorting, its .xlsx and .csv export with progress on the
 * user's socket, and Moments with its live updates when a ticket moves through the inbox's own route.
 */
import { connectSocket, createTestApp, nextEvent, type TestApp } from '@balcao/plugin-sdk/testing';
import ExcelJS from 'exceljs';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MomentsEvent, MomentTicket, ReportExportProgress, ReportResponse } from '../shared/types';
import { InsightsKit, type KitUser } from './testing/kit';

let t: TestApp;
let kit: InsightsKit;
let url: string;
let companyId: number;
let admin: KitUser;
let agent: KitUser;
let viewer: KitUser;
let watcher: KitUser;
let q1: number;
let q2: number;
const tickets: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  url = await t.listen();
  kit = new InsightsKit(t);
  ({ companyId, admin } = await kit.company());
  q1 = await kit.queue(companyId, 'Vendas');
  q2 = await kit.queue(companyId, 'Suporte');
  agent = await kit.user(companyId, { name: 'Agente', queueIds: [q1] });
  viewer = await kit.user(companyId, { name: 'Gerente', showDashboard: 'enabled', queueIds: [q2] });
  watcher = await kit.user(companyId, { name: 'Painel', allowRealTime: 'enabled', queueIds: [q1] });
  // 30 tickets of March 2026: every third in Suporte, every fifth closed and rated
  for (let i = 0; i < 30; i++) {
    const contactId = await kit.contact(companyId, { name: `Cliente ${String(i).padStart(2, '0')}` });
    const queueId = i % 3 === 0 ? q2 : q1;
    const at = new Date(Date.UTC(2026, 2, 1 + i, 15, 0)).toISOString();
    const id = await kit.ticket(companyId, { contactId, at, queueId });
    tickets.push(id);
    if (i % 5 === 0) {
      await kit.change(id, new Date(Date.UTC(2026, 2, 1 + i, 15, 10)).toISOString(), { status: 'open', userId: agent.id });
      await kit.change(id, new Date(Date.UTC(2026, 2, 1 + i, 15, 40)).toISOString(), { status: 'closed' });
      await kit.rate(companyId, id, i % 10 === 0 ? 10 : 5, agent.id);
    }
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const MARCH = 'dateFrom=2026-03-01&dateTo=2026-03-31';

describe('who may call what', () => {
  it('answers 403 to an agent without showDashboard or allowRealTime, on every call', async () => {
    for (const path of [
      '/dashboard?days=30',
      '/dashboard/ticketsDay',
      '/dashboard/ticketsUsers',
      '/ticketreport/reports',
      '/ticketreport/reports/export',
      '/dashboard/moments',
      '/usersMoments',
    ]) {
      const response = await kit.get(agent.token, path);
      expect([path, response.status, response.body]).toEqual([path, 403, { error: 'ERR_NO_PERMISSION' }]);
    }
  });

  it('lets showDashboard open the dashboard and the report but not Moments; allowRealTime only Moments', async () => {
    expect((await kit.get(viewer.token, '/dashboard?days=30')).status).toBe(200);
    expect((await kit.get(viewer.token, `/ticketreport/reports?${MARCH}`)).status).toBe(200);
    expect((await kit.get(viewer.token, '/dashboard/moments')).status).toBe(403);
    expect((await kit.get(watcher.token, '/dashboard/moments')).status).toBe(200);
    expect((await kit.get(watcher.token, '/usersMoments')).status).toBe(200);
    expect((await kit.get(watcher.token, '/dashboard?days=30')).status).toBe(403);
  });
});

describe('bad input', () => {
  it('asks for a filter, and refuses reversed, impossible and too long ranges', async () => {
    expect((await kit.get(admin.token, '/dashboard')).body).toEqual({ error: 'ERR_DASHBOARD_FILTER_REQUIRED' });
    const cases: Array<[string, string]> = [
      ['/dashboard?date_from=2026-03-10&date_to=2026-03-01', 'ERR_INVALID_DATE_RANGE'],
      ['/dashboard?date_from=2026-02-30&date_to=2026-03-01', 'ERR_INVALID_DATE_RANGE'],
      ['/dashboard?date_from=2020-01-01&date_to=2026-03-01', 'ERR_DATE_RANGE_TOO_LONG'],
      ['/ticketreport/reports?dateFrom=2026-03-10&dateTo=2026-03-01', 'ERR_INVALID_DATE_RANGE'],
      ['/ticketreport/reports?queueIds=[1,', 'ERR_INVALID_FILTER'],
      ['/ticketreport/reports?status=["open","nope"]', 'ERR_INVALID_FILTER'],
      ['/ticketreport/reports?users=[0]', 'ERR_INVALID_FILTER'],
    ];
    for (const [path, error] of cases) {
      const response = await kit.get(admin.token, path);
      expect([path, response.status, response.body]).toEqual([path, 400, { error }]);
    }
    expect((await kit.get(admin.token, '/dashboard?days=732')).status).toBe(400);
  });
});

describe('GET /ticketreport/reports', () => {
  it('pages the range newest first with the total', async () => {
    const page = await kit.get<ReportResponse>(admin.token, `/ticketreport/reports?${MARCH}&pageSize=10&page=2`);
    expect(page.body.totalTickets).toEqual({ total: 30 });
    expect(page.body.tickets.map((row) => row.contactName)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Cliente ${String(19 - i).padStart(2, '0')}`),
    );
  });

  it('filters by status, queue, attendant, rating and text, and sorts', async () => {
    const closed = await kit.get<ReportResponse>(admin.token, `/ticketreport/reports?${MARCH}&status=["closed"]&pageSize=50`);
    expect(closed.body.totalTickets.total).toBe(6);
    expect(closed.body.tickets[0]).toMatchObject({
      contactName: 'Cliente 25',
      userName: 'Agente',
      queueName: 'Vendas',
      status: 'closed',
      supportTime: 30,
      NPS: 5,
      closedAt: '2026-03-26T15:40:00.000Z',
    });
    const promoters = await kit.get<ReportResponse>(admin.token, `/ticketreport/reports?${MARCH}&nps=["promoter"]`);
    expect(promoters.body.tickets.map((row) => row.NPS)).toEqual([10, 10, 10]);
    const support = await kit.get<ReportResponse>(
      admin.token,
      `/ticketreport/reports?${MARCH}&queueIds=[${q2}]&users=[${agent.id}]&onlyRated=true&sortBy=contactName&sortOrder=asc`,
    );
    // Suporte: every third; closed and rated: every fifth → 0, 15
    expect(support.body.tickets.map((row) => row.contactName)).toEqual(['Cliente 00', 'Cliente 15']);
    const search = await kit.get<ReportResponse>(admin.token, `/ticketreport/reports?${MARCH}&searchParam=cliente 2`);
    expect(search.body.totalTickets.total).toBe(10);
  });

  it("shows a profile user with showDashboard only their queues' tickets", async () => {
    const page = await kit.get<ReportResponse>(viewer.token, `/ticketreport/reports?${MARCH}&pageSize=50`);
    expect(page.body.totalTickets.total).toBe(10);
    expect(new Set(page.body.tickets.map((row) => row.queueName))).toEqual(new Set(['Suporte']));
  });
});

describe('GET /ticketreport/reports/export', () => {
  it('streams the .xlsx with a header and every row, telling the user how far it is', async () => {
    const socket: Socket = await connectSocket(url, companyId, admin.token);
    try {
      const done = nextEvent<ReportExportProgress>(socket, `company-${companyId}-reportExport`, (p) => p.done);
      const response = await fetch(`${url}/api/ticketreport/reports/export?${MARCH}&exportId=test-1`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="relatorio-de-atendimentos.xlsx"');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0];
      expect(sheet?.rowCount).toBe(31);
      expect(sheet?.getRow(1).values).toEqual([
        undefined,
        'Nº',
        'Conexão',
        'Contato',
        'Usuário',
        'Fila',
        'Status',
        'Última mensagem',
        'Abertura',
        'Fechamento',
        'Tempo de atendimento (min)',
        'NPS',
      ]);
      // newest first: Cliente 29; the opening in São Paulo's time
      expect(sheet?.getRow(2).getCell(3).value).toBe('Cliente 29');
      expect(sheet?.getRow(2).getCell(8).value).toBe('30/03/2026 12:00');
      expect(await done).toEqual({ exportId: 'test-1', written: 30, total: 30, done: true });
    } finally {
      socket.close();
    }
  });

  it('streams the .csv in the chosen language, with the filters applied', async () => {
    const response = await t.inject({
      method: 'GET',
      url: `/api/ticketreport/reports/export?${MARCH}&format=csv&language=en&status=["closed"]&sortBy=id&sortOrder=asc`,
      token: admin.token,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('No.,Connection,Contact,User,Queue,Status,Last message,Opened,Closed,Support time (min),NPS');
    expect(lines).toHaveLength(7);
    expect(lines[1]).toBe(`${tickets[0]},,Cliente 00,Agente,Suporte,Closed,,01/03/2026 12:00,01/03/2026 12:40,30,10`);
  });
});

describe('Moments', () => {
  it('lists the waiting and attended tickets and the users, and moves a card live when the inbox changes a ticket', async () => {
    const now = new Date().toISOString();
    const contactId = await kit.contact(companyId, { name: 'Ao vivo' });
    const live = await kit.ticket(companyId, { contactId, at: now, queueId: q1 });
    const listed = await kit.get<{ tickets: MomentTicket[] }>(watcher.token, '/dashboard/moments');
    expect(listed.body.tickets.find((ticket) => ticket.id === live)).toMatchObject({ status: 'pending', user: null });
    const users = await kit.get<{ users: Array<{ name: string }> }>(watcher.token, '/usersMoments');
    expect(users.body.users.map((user) => user.name)).toEqual(expect.arrayContaining(['Agente', 'Gerente', 'Painel']));

    const socket = await connectSocket(url, companyId, watcher.token);
    try {
      const moved = nextEvent<MomentsEvent>(
        socket,
        `company-${companyId}-moments`,
        (event) => event.action === 'update' && event.ticket.id === live && event.ticket.status === 'open',
      );
      const accepted = await t.inject({
        method: 'PUT',
        url: `/api/tickets/${live}`,
        token: admin.token,
        payload: { status: 'open', userId: agent.id, queueId: q1 },
      });
      expect(accepted.statusCode).toBe(200);
      const event = await moved;
      expect(event).toMatchObject({
        action: 'update',
        ticket: { id: live, status: 'open', user: { id: agent.id, name: 'Agente' } },
      });
      const left = nextEvent<MomentsEvent>(
        socket,
        `company-${companyId}-moments`,
        (e) => e.action === 'delete' && e.ticketId === live,
      );
      const closed = await t.inject({
        method: 'PUT',
        url: `/api/tickets/${live}`,
        token: admin.token,
        payload: { status: 'closed' },
      });
      expect(closed.statusCode).toBe(200);
      await left;
    } finally {
      socket.close();
    }
  });
});
