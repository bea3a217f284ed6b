import { usePlan } from '@balcao/plugin-sdk/ui';
import { useFlowbuilderLoadedPluginsQuery } from '../api';

/**
 * Whether this company's flows may hold an openai node: its plan has `useOpenAi` and the AI plugin (whose
 * `ai` service runs the node) is loaded for it. `undefined` while either answer is on its way, so the
 * editor neither offers the node nor flags the ones a flow holds before it knows.
 *
 * The one place the editor decides it: the server refuses the node at save on the same two conditions,
 * and when it tells the editor itself this function is what reads that answer instead.
 */
export function useOpenAiNodeAvailable(): boolean | undefined {
  const plan = usePlan();
  const planAllows = plan === undefined ? undefined : plan.useOpenAi === true;
  // no plan flag, no need to ask which plugins are loaded
  const { data, isError } = useFlowbuilderLoadedPluginsQuery(undefined, { skip: planAllows === false });
  if (planAllows === false) return false;
  // a failed plugin list leaves the node unavailable rather than the editor waiting forever
  const aiLoaded = data ? data.plugins.some((plugin) => plugin.id === 'ai') : isError ? false : undefined;
  if (planAllows === undefined || aiLoaded === undefined) return undefined;
  return aiLoaded;
}

/** Characters that say a key is already the server's masked form (it never sends a stored key back). */
const MASK = /[•*…]/;

/**
 * How an api key shows once it is in the node: the server's masked form as it comes, a key typed in this
 * session (not saved yet) cut to its last four characters — the dialog never shows a key in full again.
 */
export function maskedKey(key: string): string {
  const trimmed = key.trim();
  if (!trimmed || MASK.test(trimmed)) return trimmed;
  return `••••${trimmed.slice(-4)}`;
}
