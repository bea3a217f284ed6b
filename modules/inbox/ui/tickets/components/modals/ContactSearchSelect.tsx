import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Empty, Select, Spin } from 'antd';
import { useMemo, useState } from 'react';
import type { Contact } from '../../../../shared/types';
import { useListContactsQuery } from '../../../directory/api/contacts';
import { useDebouncedValue } from '../../hooks/useDebouncedValue';

/** docs/product/tickets-and-inbox.md#validation: contact searches start at 3 characters, after a 500 ms pause. */
export const MIN_CONTACT_SEARCH = 3;

/** Props of the contact picker. */
export interface ContactSearchSelectProps {
  value?: Contact | null;
  /** Optional so antd's Form.Item can inject it. */
  onChange?(contact: Contact | null): void;
  /** The search the picker starts with (a contact card's number). */
  initialSearch?: string;
  autoFocus?: boolean;
  id?: string;
}

/** A contact picker searching `GET /contacts` by name, number or e-mail from the third character. */
export function ContactSearchSelect({ value, onChange, initialSearch = '', autoFocus, id }: ContactSearchSelectProps) {
  const { t } = useTranslation('inbox');
  const [search, setSearch] = useState(initialSearch);
  const settled = useDebouncedValue(search.trim());
  const enough = settled.length >= MIN_CONTACT_SEARCH;
  const { data, isFetching } = useListContactsQuery({ searchParam: settled, pageNumber: 1 }, { skip: !enough });
  const contacts = useMemo(() => (enough ? (data?.contacts ?? []) : []), [enough, data]);
  const options = useMemo(() => {
    const rows = value && !contacts.some((contact) => contact.id === value.id) ? [value, ...contacts] : contacts;
    return rows.map((contact) => ({
      value: contact.id,
      label: contact.number ? `${contact.name} (${contact.number})` : contact.name,
    }));
  }, [contacts, value]);

  return (
    <Select
      id={id}
      showSearch={{ filterOption: false, searchValue: search, onSearch: setSearch }}
      autoFocus={autoFocus}
      allowClear
      value={value?.id}
      placeholder={t('tickets.contactSearch.placeholder')}
      options={options}
      onChange={(contactId?: number) => {
        const rows = value ? [value, ...contacts] : contacts;
        onChange?.(rows.find((contact) => contact.id === contactId) ?? null);
      }}
      notFoundContent={
        isFetching ? (
          <Spin size="small" />
        ) : (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={
              enough ? t('tickets.contactSearch.none') : t('tickets.contactSearch.typeMore', { count: MIN_CONTACT_SEARCH })
            }
          />
        )
      }
      style={{ width: '100%' }}
    />
  );
}
