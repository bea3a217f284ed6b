import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Select, Tag } from 'antd';
import { useMemo } from 'react';
import type { Contact } from '../../../../shared/types';
import { useListTagsQuery, useSyncContactTagsMutation } from '../../../directory/api/tags';
import { isNewTagNameValid, tagsToSync } from '../../logic/contact-tags';

/**
 * The contact's tags (docs/product/tickets-and-inbox.md#screens-and-routes, #validation): pick existing ones or type new ones (at least 3 characters, else
 * 'Tag muito curta!'); every change syncs the contact's whole set (`POST /tags/sync`).
 */
export function ContactTagsEditor({ contact }: { contact: Contact }) {
  const { t } = useTranslation('inbox');
  // the whole list, filtered here: one cache entry shared with the list filters (and no kanban parameter to agree on)
  const { data: allTags, isLoading } = useListTagsQuery(undefined);
  const tags = useMemo(() => (allTags ?? []).filter((tag) => tag.kanban !== 1), [allTags]);
  const [syncTags, { isLoading: saving }] = useSyncContactTagsMutation();
  const colorOf = useMemo(() => new Map(tags.map((tag) => [tag.name.toLowerCase(), tag.color])), [tags]);
  const value = contact.tags.map((tag) => tag.name);

  const change = async (names: string[]) => {
    const invalid = names.find((name) => !isNewTagNameValid(name, tags));
    if (invalid !== undefined) {
      toast.warning(t('tickets.drawer.tagTooShort'));
      return;
    }
    try {
      await syncTags({ contactId: contact.id, tags: tagsToSync(names, [...tags, ...contact.tags]) }).unwrap();
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Select
      mode="tags"
      style={{ width: '100%' }}
      value={value}
      loading={isLoading || saving}
      disabled={saving}
      placeholder={t('tickets.drawer.tagsPlaceholder')}
      aria-label={t('tickets.drawer.tags')}
      options={tags.map((tag) => ({ value: tag.name, label: tag.name }))}
      onChange={(names: string[]) => void change(names)}
      tagRender={({ value: name, closable, onClose }) => (
        <Tag
          color={colorOf.get(String(name).toLowerCase()) ?? contact.tags.find((tag) => tag.name === name)?.color}
          closable={closable}
          onClose={onClose}
          style={{ marginInlineEnd: 4 }}
        >
          {String(name)}
        </Tag>
      )}
      tokenSeparators={[',']}
    />
  );
}
