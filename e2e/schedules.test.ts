/**
 * Schedules in a real browser: the calendar shows a schedule already saved under its contact's name, and
 * an admin creates one from the dialog, which appears on the calendar. Texts are asserted in Portuguese.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newestMtime } from '../scripts/lib/build';
import { REPO_ROOT } from './build-once';

const SCHEDULES = path.join(REPO_ROOT, 'plugins', 'schedules');

/** The schedules remote, built (only that compiler) when older than its sources. */
function buildSchedulesRemote(): void {
  const output = path.join(SCHEDULES, 'dist', 'ui', 'mf-manifest.json');
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  const sources = ['ui', 'shared', 'package.json'].map((part) => newestMtime(path.join(SCHEDULES, part)));
  if (built > 0 && built >= Math.max(...sources)) return;
  const result = spawnSync('npx', ['rspack', 'build', '-c', 'rspack.config.ts', '--config-name', 'balcao_schedules'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`building the schedules remote failed (exit ${result.status})`);
}

let t: TestApp;
let baseUrl: string;
let browser: Browser;
const opened: OpenedPage[] = [];
let freshContactId = 0;

beforeAll(async () => {
  buildSchedulesRemote();
  t = await createTestApp({ config: { hostDist: path.join(REPO_ROOT, 'host', 'dist') } });
  baseUrl = await t.listen();
  const knex = t.balcao.core.knex;
  const companyId = t.demo.companies.acme as number;
  const [contact] = await knex('contacts')
    .insert({ companyId, name: 'Paciente Agendado', number: '5511960000001', channel: 'whatsapp' })
    .returning('id');
  const [fresh] = await knex('contacts')
    .insert({ companyId, name: 'Cliente Novo Agenda', number: '5511960000002', channel: 'whatsapp' })
    .returning('id');
  freshContactId = fresh.id;
  const [connection] = await knex('whatsapps')
    .insert({ companyId, name: 'Agenda E2E', channel: 'whatsapp', status: 'DISCONNECTED', token: 'e2e-schedules' })
    .returning('id');
  // two days from now at 10:00: inside the month view the calendar opens on (or the next one's first week)
  const at = new Date();
  at.setDate(at.getDate() + 2);
  at.setHours(10, 0, 0, 0);
  await knex('schedules').insert({
    companyId,
    body: 'Lembrete da consulta',
    sendAt: at,
    dueAt: at,
    contactId: contact.id,
    whatsappId: connection.id,
    status: 'PENDENTE',
  });
  browser = await launchBrowser();
}, 300_000);

afterEach(closeOpenedPages(opened, 'schedules'));

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('schedules', () => {
  it('shows a saved schedule on the calendar and creates one from the dialog', { timeout: 120_000 }, async () => {
    const { page } = await openPage(browser, baseUrl).then((o) => {
      opened.push(o);
      return o;
    });
    await logInThroughUi(page, baseUrl, 'admin@acme.test');
    await page.waitForURL('**/tickets');
    await page.getByRole('menuitem', { name: /Agendamentos/ }).click();
    await page.waitForURL('**/schedules');
    // the agenda lists the next 30 days whatever the month: the saved schedule is in it
    await page.getByRole('button', { name: 'Agenda', exact: true }).click();
    await page.getByText('Paciente Agendado').waitFor();
    for (const label of ['Mês', 'Semana', 'Dias úteis', 'Dia']) {
      expect(await page.getByRole('button', { name: label, exact: true }).count()).toBe(1);
    }

    // a contact's link opens the add dialog for them (?contactId=)
    await page.goto(`${baseUrl}/schedules?contactId=${freshContactId}`);
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Novo agendamento').waitFor();
    await dialog.getByText('Cliente Novo Agenda (5511960000002)').waitFor();
    await dialog.getByLabel('Mensagem', { exact: true }).fill('Sua encomenda chega amanhã.');
    const when = new Date();
    when.setDate(when.getDate() + 3);
    const pad = (n: number) => String(n).padStart(2, '0');
    await dialog
      .getByLabel('Data de envio', { exact: true })
      .fill(`${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}T15:30`);
    await dialog.getByRole('button', { name: 'Adicionar' }).click();
    await page.getByText('Agendamento criado com sucesso!').waitFor();
    await page.getByRole('button', { name: 'Agenda', exact: true }).click();
    await page.getByText('Cliente Novo Agenda').waitFor();
    const saved = await t.balcao.core.knex('schedules').where({ body: 'Sua encomenda chega amanhã.' }).first();
    expect(saved).toMatchObject({ status: 'PENDENTE', tipoDias: 4, valorIntervalo: 0 });
    expect(new Date(saved.sendAt).getHours()).toBe(15);
  });
});
