export { InfiniteScroll, type InfiniteScrollProps, LOAD_MORE_THRESHOLD_PX } from '@balcao/plugin-sdk/ui';
