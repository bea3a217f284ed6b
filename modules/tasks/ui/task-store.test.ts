import { describe, expect, it } from 'vitest';
import { addTask, editTask, parseTasks, readTasks, removeTask, storageKey, type Task, writeTasks } from './task-store';

const t0 = new Date('2026-03-01T10:00:00.000Z');
const t1 = new Date('2026-03-01T11:30:00.000Z');

/** A Storage over a Map, with a switch to refuse writes as a full or disabled browser storage does. */
function memoryStorage(refuseWrites = false): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => {
      if (refuseWrites) throw new DOMException('full', 'QuotaExceededError');
      items.set(key, value);
    },
  };
}

describe('the task list store', () => {
  it('adds trimmed tasks with their creation time and ignores blank text', () => {
    const one = addTask([], '  Ligar para a Ana  ', t0, 'a');
    expect(one).toEqual([{ id: 'a', text: 'Ligar para a Ana', createdAt: t0.toISOString(), updatedAt: t0.toISOString() }]);
    expect(addTask(one, '   ', t1, 'b')).toEqual(one);
    expect(addTask(one, '', t1, 'b')).toEqual(one);
  });

  it('edits one task and moves its updated time; blank or unchanged text keeps it as it was', () => {
    const list = addTask(addTask([], 'A', t0, 'a'), 'B', t0, 'b');
    const edited = editTask(list, 'b', ' B2 ', t1);
    expect(edited[0]).toEqual(list[0]);
    expect(edited[1]).toEqual({ id: 'b', text: 'B2', createdAt: t0.toISOString(), updatedAt: t1.toISOString() });
    expect(editTask(list, 'b', '  ', t1)).toEqual(list);
    expect(editTask(list, 'b', 'B', t1)[1]?.updatedAt).toBe(t0.toISOString());
  });

  it('removes one task', () => {
    const list = addTask(addTask([], 'A', t0, 'a'), 'B', t0, 'b');
    expect(removeTask(list, 'a').map((task) => task.id)).toEqual(['b']);
  });

  it('keeps one list per user of a company', () => {
    expect(storageKey(3, 7)).toBe('balcao:todolist:3:7');
    expect(storageKey(3, 8)).not.toBe(storageKey(3, 7));
    expect(storageKey(4, 7)).not.toBe(storageKey(3, 7));
  });

  it('reads back what it wrote and drops what it cannot read', () => {
    const storage = memoryStorage();
    const list: Task[] = addTask([], 'A', t0, 'a');
    expect(writeTasks(storage, 'k', list)).toBe(true);
    expect(readTasks(storage, 'k')).toEqual(list);
    expect(readTasks(storage, 'other')).toEqual([]);
    expect(parseTasks('{not json')).toEqual([]);
    expect(parseTasks('{"a":1}')).toEqual([]);
    expect(parseTasks(JSON.stringify([list[0], { id: 1, text: 'x' }, null]))).toEqual(list);
  });

  it('says so when the browser refuses to keep the list', () => {
    expect(writeTasks(memoryStorage(true), 'k', [])).toBe(false);
  });
});
