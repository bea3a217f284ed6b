import { useSession } from '@balcao/plugin-sdk/ui';
import { useCallback, useEffect, useState } from 'react';
import { readTasks, storageKey, type Task, writeTasks } from './task-store';

/** A task id unique on this device (crypto.randomUUID is missing outside secure contexts, e.g. plain http on a LAN). */
function newTaskId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

export interface TasksApi {
  tasks: Task[];
  /** Answers false when the browser refused to keep the change. */
  update(change: (tasks: readonly Task[], now: Date, newId: string) => Task[]): boolean;
}

/**
 * The signed-in user's list on this device, kept in step with other tabs of the same browser (the
 * `storage` event tells a tab what another one wrote).
 */
export function useTasks(): TasksApi {
  const session = useSession();
  const key = session ? storageKey(session.companyId, session.id) : null;
  const [tasks, setTasks] = useState<Task[]>(() => (key ? readTasks(localStorage, key) : []));

  useEffect(() => {
    if (!key) return;
    setTasks(readTasks(localStorage, key));
    const onStorage = (event: StorageEvent) => {
      if (event.key === key || event.key === null) setTasks(readTasks(localStorage, key));
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [key]);

  const update = useCallback<TasksApi['update']>(
    (change) => {
      if (!key) return false;
      // from storage, not from state: another tab may have written since this one last read
      const next = change(readTasks(localStorage, key), new Date(), newTaskId());
      const kept = writeTasks(localStorage, key, next);
      if (kept) setTasks(next);
      return kept;
    },
    [key],
  );

  return { tasks, update };
}
