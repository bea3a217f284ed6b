export {
  effectiveSearch,
  SEARCH_DEBOUNCE_MS,
  useDebouncedValue,
  useNarrowScreen,
  usePagedSearch,
} from '@balcao/plugin-sdk/ui';
