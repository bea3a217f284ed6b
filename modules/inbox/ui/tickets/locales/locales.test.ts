import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MEDIA_TYPES, TICKET_LOG_TYPES, TICKET_STATUSES } from '../../../shared/types';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';
import tr from './tr.json';

interface Tree {
  [key: string]: string | Tree;
}

function leafKeys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : leafKeys(value, `${prefix}${key}.`),
  );
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

const trees = { pt, en, es, tr } as Record<string, Tree>;
const ptKeys = new Set(leafKeys(pt as Tree));
const exists = (key: string) => ptKeys.has(key) || ptKeys.has(`${key}_one`);

describe('the Tickets screen texts', () => {
  it('have the same keys in pt, en, es and tr, none of them empty', () => {
    const reference = leafKeys(pt as Tree).sort();
    for (const [language, tree] of Object.entries(trees)) {
      expect(leafKeys(tree).sort(), language).toEqual(reference);
      for (const key of reference) {
        const value = key.split('.').reduce<unknown>((node, part) => (node as Tree)[part], tree);
        expect(typeof value === 'string' && value.trim().length > 0, `${language}: ${key}`).toBe(true);
      }
    }
  });

  it('live under tickets (and errors), apart from the directory pages', () => {
    for (const tree of Object.values(trees)) expect(Object.keys(tree).sort()).toEqual(['errors', 'tickets']);
  });

  it('cover every key the code asks for', () => {
    const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
    const missing: string[] = [];
    for (const file of sourceFiles(root)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bt\('(tickets\.[A-Za-z0-9_.]+)'/g)) {
        if (match[1] && !exists(match[1])) missing.push(`${path.relative(root, file)}: ${match[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('cover the keys the code builds from values', () => {
    const built = [
      ...TICKET_STATUSES.map((status) => `tickets.status.${status}`),
      ...['open', 'pending', 'group'].map((tab) => `tickets.tabs.${tab}`),
      ...['accept', 'transfer', 'close', 'ignore', 'reopen', 'return'].map((action) => `tickets.actions.${action}`),
      ...TICKET_LOG_TYPES.map((type) => `tickets.log.types.${type}`),
      ...[0, 1, 2, 3, 4, 5].map((ack) => `tickets.messages.ack.${ack}`),
      ...MEDIA_TYPES.map((type) => `tickets.messages.media.${type}`),
    ];
    expect(built.filter((key) => !exists(key))).toEqual([]);
  });

  it('keep the documented wording in Portuguese', () => {
    const tickets = (pt as { tickets: Tree }).tickets as Record<string, Record<string, unknown>>;
    expect(tickets.messages?.empty).toBe('Diga olá para seu novo contato!');
    expect(tickets.messages?.today).toBe('HOJE');
    expect(tickets.common?.selectQueue).toBe('Selecione uma fila');
    expect(tickets.drawer?.tagTooShort).toBe('Tag muito curta!');
    expect(tickets.notes?.added).toBe('Observação adicionada com sucesso!');
    expect(tickets.notes?.deleted).toBe('Observação excluída com sucesso!');
    expect(tickets.pdf?.notFound).toBe('Elemento não encontrado para exportar.');
    expect(tickets.layout).toEqual({ ticketTab: 'Ticket', listTab: 'Atendimentos' });
  });

  it("translate the inbox's own error codes", () => {
    for (const tree of Object.values(trees)) {
      expect(Object.keys(tree.errors as Tree)).toEqual(
        expect.arrayContaining([
          'ERR_QUEUE_REQUIRED',
          'ERR_TICKET_TAG_REQUIRED',
          'ERR_EDIT_WINDOW_EXPIRED',
          'ERR_EMPTY_MESSAGE',
          'ERR_TICKET_NOT_OPEN',
        ]),
      );
    }
  });
});
