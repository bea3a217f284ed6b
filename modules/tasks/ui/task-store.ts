/**
 * The task list's data (docs/product/automation.md "The task list"): kept in this browser's localStorage
 * only, one list per user of a company (two people sharing a computer each see their own), never sent
 * to the server.
 */

/** One task as stored: its text and when it was created and last changed (ISO times). */
export interface Task {
  id: string;
  text: string;
  createdAt: string;
  updatedAt: string;
}

/** The localStorage key of a user's list. */
export function storageKey(companyId: number, userId: number): string {
  return `balcao:todolist:${companyId}:${userId}`;
}

const isTask = (value: unknown): value is Task => {
  if (typeof value !== 'object' || value === null) return false;
  const task = value as Record<string, unknown>;
  return (
    typeof task.id === 'string' &&
    typeof task.text === 'string' &&
    typeof task.createdAt === 'string' &&
    typeof task.updatedAt === 'string'
  );
};

/** The stored list; what another version or a hand edit left unreadable is dropped rather than shown broken. */
export function parseTasks(raw: string | null): Task[] {
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(isTask) : [];
  } catch {
    return [];
  }
}

export function readTasks(storage: Storage, key: string): Task[] {
  try {
    return parseTasks(storage.getItem(key));
  } catch {
    // storage refused (private mode, disabled by policy): an empty list, as on a new device
    return [];
  }
}

/** Writes the list; answers false when the browser refuses (full or disabled storage). */
export function writeTasks(storage: Storage, key: string, tasks: readonly Task[]): boolean {
  try {
    storage.setItem(key, JSON.stringify(tasks));
    return true;
  } catch {
    return false;
  }
}

/** Blank text (only spaces) is ignored: the list stays as it was. */
export function addTask(tasks: readonly Task[], text: string, now: Date, id: string): Task[] {
  const trimmed = text.trim();
  if (!trimmed) return [...tasks];
  const at = now.toISOString();
  return [...tasks, { id, text: trimmed, createdAt: at, updatedAt: at }];
}

/** A new text for one task, with its time of change; blank text leaves the task unchanged. */
export function editTask(tasks: readonly Task[], id: string, text: string, now: Date): Task[] {
  const trimmed = text.trim();
  if (!trimmed) return [...tasks];
  return tasks.map((task) =>
    task.id === id && task.text !== trimmed ? { ...task, text: trimmed, updatedAt: now.toISOString() } : task,
  );
}

export function removeTask(tasks: readonly Task[], id: string): Task[] {
  return tasks.filter((task) => task.id !== id);
}
