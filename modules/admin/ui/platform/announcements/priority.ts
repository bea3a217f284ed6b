/** docs/product/tickets-and-inbox.md#entities: the popover's priority colours — 1 red, 2 orange, 3 grey. */
export const PRIORITY_COLORS: Record<number, string> = { 1: '#f5222d', 2: '#fa8c16', 3: '#8c8c8c' };

export const PRIORITIES = [1, 2, 3] as const;

/** docs/product/automation.md#states-and-transitions: a new announcement is active with priority 3. */
export const DEFAULT_PRIORITY = 3;

/** docs/product/automation.md#validation: the image attachment accepts png, jpg, jpeg. */
export const IMAGE_ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';

/** Whether a chosen file is one the server takes (by name and type; the server checks the content). */
export function isAcceptedImage(file: File): boolean {
  return /\.(png|jpe?g)$/i.test(file.name) && (file.type === '' || file.type === 'image/png' || file.type === 'image/jpeg');
}
