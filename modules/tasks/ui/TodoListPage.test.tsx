import { narrowScreen, renderPage, signIn } from '@balcao/plugin-sdk/testing/ui';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tasksLocales, tasksRoutes } from './index';
import { TodoListPage } from './TodoListPage';
import { storageKey } from './task-store';

const signInAs = (fields = {}) => signIn({ namespace: 'tasks', translations: tasksLocales }, fields);
const KEY = storageKey(1, 1);
const stored = () => JSON.parse(localStorage.getItem(KEY) ?? '[]') as Array<{ text: string; updatedAt: string }>;
const input = () => screen.getByPlaceholderText('Nova tarefa') as HTMLInputElement;

describe('the task list page', () => {
  beforeEach(async () => {
    localStorage.clear();
    await signInAs({ id: 1, companyId: 1 });
  });

  it('serves /todolist and has no side-menu entry', () => {
    expect(tasksRoutes.map((route) => route.path)).toEqual(['/todolist']);
  });

  it('starts empty, adds tasks on this device and ignores blank text', async () => {
    renderPage(<TodoListPage />, '/todolist');
    expect(screen.getByText('Nenhuma tarefa')).toBeTruthy();
    fireEvent.change(input(), { target: { value: '   ' } });
    expect((screen.getByRole('button', { name: 'Adicionar' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(input().closest('form') as HTMLFormElement);
    expect(stored()).toEqual([]);

    fireEvent.change(input(), { target: { value: 'Retornar a Ana' } });
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    expect(await screen.findByText('Retornar a Ana')).toBeTruthy();
    expect(input().value).toBe('');
    expect(stored().map((task) => task.text)).toEqual(['Retornar a Ana']);
    expect(screen.getByText(/^Atualizada em /)).toBeTruthy();
  });

  it('edits a task in the same box (Salvar) and deletes one after confirming', async () => {
    localStorage.setItem(
      KEY,
      JSON.stringify([
        { id: 'a', text: 'Primeira', createdAt: '2026-01-01T10:00:00.000Z', updatedAt: '2026-01-01T10:00:00.000Z' },
        { id: 'b', text: 'Segunda', createdAt: '2026-01-01T10:00:00.000Z', updatedAt: '2026-01-01T10:00:00.000Z' },
      ]),
    );
    renderPage(<TodoListPage />, '/todolist');
    const first = (await screen.findByText('Primeira')).closest('li') as HTMLElement;
    fireEvent.click(within(first).getByRole('button', { name: 'Editar' }));
    expect(input().value).toBe('Primeira');
    fireEvent.change(input(), { target: { value: 'Primeira, revista' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Primeira, revista')).toBeTruthy();
    expect(stored()[0]?.text).toBe('Primeira, revista');
    expect(stored()[0]?.updatedAt).not.toBe('2026-01-01T10:00:00.000Z');
    expect(screen.getByRole('button', { name: 'Adicionar' })).toBeTruthy();

    const second = screen.getByText('Segunda').closest('li') as HTMLElement;
    fireEvent.click(within(second).getByRole('button', { name: 'Excluir' }));
    const confirm = await screen.findByText('Excluir esta tarefa?');
    const popup = confirm.closest('.ant-popover') as HTMLElement;
    fireEvent.click(within(popup).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(screen.queryByText('Segunda')).toBeNull());
    expect(stored().map((task) => task.text)).toEqual(['Primeira, revista']);
  });

  it("keeps each user's list apart and follows what another tab writes", async () => {
    localStorage.setItem(
      storageKey(1, 2),
      JSON.stringify([{ id: 'x', text: 'De outro usuário', createdAt: 'x', updatedAt: 'x' }]),
    );
    renderPage(<TodoListPage />, '/todolist');
    expect(screen.queryByText('De outro usuário')).toBeNull();
    act(() => {
      localStorage.setItem(
        KEY,
        JSON.stringify([{ id: 'y', text: 'Da outra aba', createdAt: 'y', updatedAt: '2026-01-01T10:00:00.000Z' }]),
      );
      window.dispatchEvent(new StorageEvent('storage', { key: KEY }));
    });
    expect(await screen.findByText('Da outra aba')).toBeTruthy();
  });

  it('works on a narrow screen', async () => {
    const wide = narrowScreen();
    try {
      renderPage(<TodoListPage />, '/todolist');
      fireEvent.change(input(), { target: { value: 'No celular' } });
      fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
      expect(await screen.findByText('No celular')).toBeTruthy();
    } finally {
      wide();
    }
  });
});

afterEach(() => localStorage.clear());
