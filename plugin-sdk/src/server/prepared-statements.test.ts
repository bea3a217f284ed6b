import { describe, expect, it } from 'vitest';
import { preparedStatementName } from './prepared-statements';

describe('preparedStatementName', () => {
  it('names a text the same every time, another text otherwise, under the prefix', () => {
    const first = preparedStatementName('inbox_list', 'SELECT 1');
    expect(first).toMatch(/^inbox_list_[0-9a-f]{20}$/);
    expect(preparedStatementName('inbox_list', 'SELECT 1')).toBe(first);
    expect(preparedStatementName('inbox_list', 'SELECT 2')).not.toBe(first);
    expect(preparedStatementName('wa_fenced', 'SELECT 1')).toBe(first.replace('inbox_list', 'wa_fenced'));
  });
});
